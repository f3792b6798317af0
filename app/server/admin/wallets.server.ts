/**
 * The firm's deposit wallets: the rules of a change, whoever makes it. Only the values that changed count, each
 * checked (a typo in a deposit address loses client money): an address for its network's format, an extended
 * public key, where the chain is watched, read for that chain (never a private one), and a change starts
 * from the address the form showed: a wallet changed since (another admin's) is never overwritten. Every change
 * waits for a second admin (proposals.server.ts); when it is made, every admin is mailed.
 */
import { asc, type SQL, sql } from "drizzle-orm";
import type { ChainNetwork } from "~/lib/chain/addresses";
import { keyAddressesOf, readWalletValue, WALLET_KEY_MESSAGES } from "~/lib/chain/wallet-value";
import { walletAccountKey } from "~/lib/chain/wallets";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { invalidAddressMessage, isValidAddress } from "~/lib/wallet-address";
import { builtOnce } from "../built-once.server";
import type { Result } from "../commands.server";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import { listDepositWallets } from "../ledger/reads.server";
import { enqueueEmailFor } from "../mail/outbox.server";

export interface SubmittedWallet {
  id: number;
  walletAddress: string;
  /** The address the form showed when it was rendered: a change never starts from a stale address. */
  renderedAddress: string;
}

export interface WalletChange {
  wallet: { id: number; walletType: string; walletAddress: string };
  /** The address it has (the one the form showed) and the one it is to have. */
  oldAddress: string;
  newAddress: string;
}

/**
 * The desk's wallets, each with the address a change waiting for a second admin would give it (null when none
 * waits): the modal shows that change and does not offer a second one meanwhile.
 */
export const deskWalletsQuery = builtOnce((db) => {
  const { depositWallets } = schema;
  return db
    .select({
      id: depositWallets.id,
      walletType: depositWallets.walletType,
      walletAddress: depositWallets.walletAddress,
      awaitingAddress: sql<string | null>`(SELECT new_address FROM proposals
        WHERE kind = 'wallet_change' AND status = 'pending' AND wallet_id = deposit_wallets.id)`,
    })
    .from(depositWallets)
    .orderBy(asc(depositWallets.walletType));
});

/** Why a wallet may not take this value, prefixed by its type so the admin knows which field; null when it may. */
function valueRefusal(walletType: string, value: string, bitcoinNetwork: ChainNetwork): string | null {
  const read = readWalletValue(walletType, value);
  if (read.kind === "refused") return `${walletType}: ${read.error}`;
  // A Bitcoin key of the other network would be watched by no one: its clients would get addresses nobody reads.
  const key = walletAccountKey(walletType, value);
  if (key?.chain === "bitcoin" && key.network !== bitcoinNetwork) {
    return `${walletType}: ${WALLET_KEY_MESSAGES.otherNetwork(key.kind, bitcoinNetwork)}`;
  }
  if (read.kind === "key") return null;
  return isValidAddress(walletType, value, bitcoinNetwork) ? null : invalidAddressMessage(walletType);
}

/** The wallets the form changed, checked: something changed, nothing changed meanwhile, every value well formed. */
export async function walletChangesOf(
  db: Db,
  submitted: SubmittedWallet[],
  bitcoinNetwork: ChainNetwork = "mainnet",
): Promise<Result<{ changes: WalletChange[] }>> {
  const current = await listDepositWallets(db);
  const changes = submitted.flatMap((s): WalletChange[] => {
    const wallet = current.find((w) => w.id === s.id);
    const newAddress = s.walletAddress.trim();
    return wallet && newAddress !== s.renderedAddress ? [{ wallet, oldAddress: s.renderedAddress, newAddress }] : [];
  });
  if (changes.length === 0) return { ok: false, error: ADMIN_MESSAGES.noWalletChanges };
  if (changes.some((c) => c.wallet.walletAddress !== c.oldAddress)) {
    return { ok: false, error: ADMIN_MESSAGES.walletChangedMeanwhile };
  }
  const refusals = changes.flatMap((c) => valueRefusal(c.wallet.walletType, c.newAddress, bitcoinNetwork) ?? []);
  if (refusals.length > 0) return { ok: false, error: refusals.join("; ") };
  return { ok: true, changes };
}

/**
 * The mail to every admin that a deposit wallet changed, written only when `changed` holds (same batch). A new key
 * goes with its first addresses, derived here from the stored proposal, for every admin to compare.
 */
export function walletChangedNotice(
  change: { walletType: string; oldAddress: string; newAddress: string; changedBy: string },
  changed: SQL,
) {
  const keyAddresses = keyAddressesOf(change.walletType, change.newAddress);
  return enqueueEmailFor({
    template: "deposit_wallet_changed",
    data: {
      walletType: change.walletType,
      previousAddress: change.oldAddress,
      newAddress: change.newAddress,
      changedBy: change.changedBy.slice(0, 320),
      ...(keyAddresses ? { newKeyAddresses: keyAddresses } : {}),
    },
    to: sql`email`,
    from: sql`users WHERE role = 'admin' AND deactivated_at IS NULL AND ${changed}`,
  });
}
