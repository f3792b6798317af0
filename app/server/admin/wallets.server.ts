/**
 * The firm's deposit wallets. Only the addresses that changed are saved, each checked for its network's
 * format (a typo in a deposit address loses client money). Each change is audited and e-mailed to every
 * admin in the same batch. The form sends back the address it showed, and a wallet that changed since (another
 * admin's save) is not overwritten: the save is refused, and the audit row and mails follow only a real update.
 */
import { sql } from "drizzle-orm";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { invalidAddressMessage, isValidAddress } from "~/lib/wallet-address";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { returning, writeTogether } from "../db.server";
import { listDepositWallets } from "../ledger/reads.server";
import { enqueueEmailFor } from "../mail/outbox.server";

interface SubmittedWallet {
  id: number;
  walletAddress: string;
  /** The address the form showed when it was rendered: a save never overwrites a wallet changed since. */
  renderedAddress: string;
}

export async function updateDepositWallets(
  db: Db,
  actor: Required<Actor>,
  submitted: SubmittedWallet[],
  now = Date.now(),
): Promise<Result<{ updated: number; emailIds: number[] }>> {
  const current = await listDepositWallets(db);
  const changes = submitted
    .map((s) => ({
      wallet: current.find((w) => w.id === s.id),
      walletAddress: s.walletAddress.trim(),
      renderedAddress: s.renderedAddress,
    }))
    .filter((c): c is { wallet: (typeof current)[number]; walletAddress: string; renderedAddress: string } =>
      Boolean(c.wallet && c.walletAddress !== c.renderedAddress),
    );
  if (changes.length === 0) return { ok: false, error: ADMIN_MESSAGES.noWalletChanges };
  if (changes.some((c) => c.wallet.walletAddress !== c.renderedAddress)) {
    return { ok: false, error: ADMIN_MESSAGES.walletChangedMeanwhile };
  }
  const invalid = changes.filter((c) => !isValidAddress(c.wallet.walletType, c.walletAddress));
  if (invalid.length > 0)
    return { ok: false, error: invalid.map((c) => invalidAddressMessage(c.wallet.walletType)).join("; ") };

  const writes = Object.fromEntries(
    changes.flatMap(({ wallet, walletAddress, renderedAddress }) => [
      [
        `update:${wallet.id}`,
        returning<{ id: number }>(
          sql`UPDATE deposit_wallets SET wallet_address = ${walletAddress}, updated_at = ${now}, updated_by = ${actor.id}
              WHERE id = ${wallet.id} AND wallet_address = ${renderedAddress}
              RETURNING id`,
        ),
      ],
      [
        `audit:${wallet.id}`,
        auditInsert({
          actor,
          action: "wallet.update",
          target: `wallet:${wallet.id}`,
          detail: { walletType: wallet.walletType, before: renderedAddress, after: walletAddress },
          // Only for the update just made: another admin's save in between leaves no record of ours.
          onlyIf: sql`changes() = 1`,
          at: now,
        }),
      ],
      [
        `notice:${wallet.id}`,
        enqueueEmailFor({
          template: "deposit_wallet_changed",
          data: {
            walletType: wallet.walletType,
            previousAddress: renderedAddress,
            newAddress: walletAddress,
            changedBy: actor.email,
          },
          to: sql`email`,
          from: sql`users WHERE role = 'admin' AND EXISTS (SELECT 1 FROM deposit_wallets
                     WHERE id = ${wallet.id} AND wallet_address = ${walletAddress} AND updated_at = ${now})`,
        }),
      ],
    ]),
  );
  try {
    const results = await writeTogether(db, writes);
    const emailIds = changes.flatMap(({ wallet }) =>
      ((results[`notice:${wallet.id}`] ?? []) as Array<{ id: number }>).map((row) => row.id),
    );
    const updated = changes.filter(({ wallet }) => (results[`update:${wallet.id}`] ?? []).length === 1).length;
    if (updated < changes.length) return { ok: false, error: ADMIN_MESSAGES.walletChangedMeanwhile };
    return { ok: true, updated, emailIds };
  } catch (error) {
    console.error("updateDepositWallets failed", error);
    return { ok: false, error: ADMIN_MESSAGES.walletsFailed };
  }
}

/** The wallet edit, then the notices to every admin are delivered. */
export async function saveDepositWallets(
  context: CommandContext,
  actor: Required<Actor>,
  submitted: SubmittedWallet[],
): Promise<Outcome<{ updated: number }>> {
  const result = await updateDepositWallets(context.db, actor, submitted);
  if (!result.ok) return { ok: false, error: result.error, status: 400 };
  afterCommit(context, { emailIds: result.emailIds });
  return { ok: true, updated: result.updated };
}
