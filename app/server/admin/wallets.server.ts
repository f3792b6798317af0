/**
 * The firm's deposit wallets. Only the addresses that changed are saved, each checked for its network's
 * format (a typo in a deposit address loses client money). Each change is audited and e-mailed to every
 * admin in the same batch; an address edited by someone else meanwhile is not overwritten.
 */
import { sql } from "drizzle-orm";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { invalidAddressMessage, isValidAddress } from "~/lib/wallet-address";
import { type Actor, auditInsert } from "../audit.server";
import { afterCommit, type CommandContext, type Outcome, type Result } from "../commands.server";
import type { Db } from "../db.server";
import { writeTogether } from "../db.server";
import { listDepositWallets } from "../ledger/reads.server";
import { enqueueEmailFor } from "../mail/outbox.server";

export async function updateDepositWallets(
  db: Db,
  actor: Required<Actor>,
  submitted: Array<{ id: number; walletAddress: string }>,
  now = Date.now(),
): Promise<Result<{ updated: number; emailIds: number[] }>> {
  const current = await listDepositWallets(db);
  const changes = submitted
    .map((s) => ({ wallet: current.find((w) => w.id === s.id), walletAddress: s.walletAddress.trim() }))
    .filter((c): c is { wallet: (typeof current)[number]; walletAddress: string } =>
      Boolean(c.wallet && c.walletAddress !== c.wallet.walletAddress),
    );
  if (changes.length === 0) return { ok: false, error: ADMIN_MESSAGES.noWalletChanges };
  const invalid = changes.filter((c) => !isValidAddress(c.wallet.walletType, c.walletAddress));
  if (invalid.length > 0)
    return { ok: false, error: invalid.map((c) => invalidAddressMessage(c.wallet.walletType)).join("; ") };

  const writes = Object.fromEntries(
    changes.flatMap(({ wallet, walletAddress }) => [
      [
        `update:${wallet.id}`,
        sql`UPDATE deposit_wallets SET wallet_address = ${walletAddress}, updated_at = ${now}, updated_by = ${actor.id}
            WHERE id = ${wallet.id} AND wallet_address = ${wallet.walletAddress}`,
      ],
      [
        `audit:${wallet.id}`,
        auditInsert({
          actor,
          action: "wallet.update",
          target: `wallet:${wallet.id}`,
          detail: { walletType: wallet.walletType, before: wallet.walletAddress, after: walletAddress },
          at: now,
        }),
      ],
      [
        `notice:${wallet.id}`,
        enqueueEmailFor({
          template: "deposit_wallet_changed",
          data: {
            walletType: wallet.walletType,
            previousAddress: wallet.walletAddress,
            newAddress: walletAddress,
            changedBy: actor.email,
          },
          to: sql`email`,
          from: sql`users WHERE role = 'admin'`,
        }),
      ],
    ]),
  );
  try {
    const results = await writeTogether(db, writes);
    const emailIds = changes.flatMap(({ wallet }) =>
      ((results[`notice:${wallet.id}`] ?? []) as Array<{ id: number }>).map((row) => row.id),
    );
    return { ok: true, updated: changes.length, emailIds };
  } catch (error) {
    console.error("updateDepositWallets failed", error);
    return { ok: false, error: ADMIN_MESSAGES.walletsFailed };
  }
}

/** The wallet edit, then the notices to every admin are delivered. */
export async function saveDepositWallets(
  context: CommandContext,
  actor: Required<Actor>,
  submitted: Array<{ id: number; walletAddress: string }>,
): Promise<Outcome<{ updated: number }>> {
  const result = await updateDepositWallets(context.db, actor, submitted);
  if (!result.ok) return { ok: false, error: result.error, status: 400 };
  afterCommit(context, { emailIds: result.emailIds });
  return { ok: true, updated: result.updated };
}
