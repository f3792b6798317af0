/**
 * A client's own deposit address per watched wallet, given on first use: the key's next index is taken (one
 * statement), its address derived and inserted; the unique indexes (one address per client and key, one client per
 * address) settle the rest: a client racing themselves keeps the first address. Two wallets holding the same key (Ether and USDT
 * on one Ethereum account) give the client one address for both, as exchanges do.
 */
import { and, eq, lte, sql } from "drizzle-orm";
import { deriveAddress } from "~/lib/chain/addresses";
import { checksummedHex } from "~/lib/chain/encodings";
import type { Db } from "../db.server";
import { schema } from "../db.server";
import type { WatchedWallet } from "./watched-wallets.server";

const { depositAddresses, depositKeys } = schema;

/** Indexes tried before giving up: each failure is an index whose address another key already gave. */
const ATTEMPTS = 5;

/** How an address is shown: an Ethereum address with its checksum's capitals (EIP-55), Bitcoin's as stored. */
export const displayAddress = (network: string, address: string) =>
  network === "ethereum" ? checksummedHex(address.slice(2)) : address;

/** The key's next index, taken: one statement, so no two callers ever get the same one. */
async function takeIndex(db: Db, keyId: string): Promise<number> {
  const taken = await db
    .insert(depositKeys)
    .values({ keyId, nextIndex: 1 })
    .onConflictDoUpdate({ target: depositKeys.keyId, set: { nextIndex: sql`${depositKeys.nextIndex} + 1` } })
    .returning({ index: sql<number>`${depositKeys.nextIndex} - 1` })
    .get();
  if (!taken) throw new Error("No index was taken");
  return taken.index;
}

/**
 * How often `shown_at` is written for one address: the watcher asks about addresses shown within the hour, so a
 * minute is precise enough, and a client reloading /deposit (or its two wallets sharing one address) costs no write.
 */
export const SHOWN_AT_RESOLUTION_MS = 60_000;

/**
 * The client's address for the wallet, given now if they had none; its `shown_at` is brought to now unless it was
 * written less than a minute ago (one conditional UPDATE, and only when the read says it is due).
 */
export async function depositAddressFor(db: Db, userId: string, wallet: WatchedWallet, now = Date.now()) {
  const own = and(
    eq(depositAddresses.userId, userId),
    eq(depositAddresses.network, wallet.network),
    eq(depositAddresses.keyId, wallet.keyId),
  );
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const shown = await db
      .select({ id: depositAddresses.id, address: depositAddresses.address, shownAt: depositAddresses.shownAt })
      .from(depositAddresses)
      .where(own)
      .get();
    if (shown) {
      const due = now - SHOWN_AT_RESOLUTION_MS;
      if (shown.shownAt <= due) {
        // Conditional, so two views racing each other write once.
        await db
          .update(depositAddresses)
          .set({ shownAt: now })
          .where(and(eq(depositAddresses.id, shown.id), lte(depositAddresses.shownAt, due)));
      }
      return displayAddress(wallet.network, shown.address);
    }
    const index = await takeIndex(db, wallet.keyId);
    const given = await db
      .insert(depositAddresses)
      .values({
        userId,
        network: wallet.network,
        keyId: wallet.keyId,
        derivationIndex: index,
        address: deriveAddress(wallet.account, index).toLowerCase(),
        createdAt: now,
        shownAt: now,
      })
      .onConflictDoNothing()
      .returning({ address: depositAddresses.address })
      .get();
    if (given) return displayAddress(wallet.network, given.address);
  }
  throw new Error(`No deposit address could be given on ${wallet.network} after ${ATTEMPTS} attempts`);
}
