/**
 * The chain bench's world (scripts/bench-chain.ts): a D1 of its own holding 10,000 clients with a Bitcoin deposit
 * address each (shown long ago, so no mempool reads), and blocks as full as mainnet's: 3,000 transactions of two
 * P2WPKH outputs each, 100 of them paying clients' addresses. P2WPKH only is the dearest case for the watcher: every
 * output is parsed and goes into the block's one matching statement (other script types are skipped unread).
 */
import type { Miniflare } from "miniflare";
import { p2wpkhAddress } from "./chain-simulator/bitcoin-tx.ts";
import { randomBytes } from "./chain-simulator/bytes.ts";
import type { ChainControl } from "./chain-simulator/client.ts";

export const CLIENTS = 10_000;
export const TRANSACTIONS_PER_BLOCK = 3_000;
export const PAYMENTS_PER_BLOCK = 100;
const ROWS_PER_STATEMENT = 500;
const DAY = 86_400_000;

/** Clients and their addresses, written straight to the database (the bench measures scans, not sign-ups). */
export async function seedClients(d1: Awaited<ReturnType<Miniflare["getD1Database"]>>): Promise<string[]> {
  const now = Date.now();
  const addresses = Array.from({ length: CLIENTS }, () => p2wpkhAddress("tb", randomBytes(20)));
  const ids = addresses.map((_, n) => `00000000-0000-4000-8000-${(0xc000_0000_0000 + n).toString(16)}`);
  const statements = [];
  for (let start = 0; start < CLIENTS; start += ROWS_PER_STATEMENT) {
    const chunk = ids.slice(start, start + ROWS_PER_STATEMENT);
    statements.push(
      d1.prepare(
        `INSERT INTO users (id, email, password_hash, role, created_at) VALUES ${chunk
          .map((id) => `('${id}', 'chain-${id.slice(-8)}@bench.example', 'x', 'user', ${now - DAY})`)
          .join(", ")}`,
      ),
      d1.prepare(
        `INSERT INTO deposit_addresses (user_id, network, key_id, derivation_index, address, created_at, shown_at)
         VALUES ${chunk
           .map(
             (id, i) =>
               `('${id}', 'bitcoin', 'bench', ${start + i}, '${addresses[start + i]}', ${now - DAY}, ${now - DAY})`,
           )
           .join(", ")}`,
      ),
    );
  }
  await d1.batch(statements);
  return addresses;
}

/** `count` distinct clients' addresses, at random. */
export function pickPayees(addresses: string[], count = PAYMENTS_PER_BLOCK): string[] {
  const payees = new Set<string>();
  while (payees.size < count) payees.add(addresses[Math.floor(Math.random() * addresses.length)] ?? "");
  return [...payees];
}

/** One full block on the simulator's chain: strangers' payments, and one payment to each of `payees`. */
export async function mineFullBlock(chain: ChainControl, payees: string[]) {
  await chain.traffic(TRANSACTIONS_PER_BLOCK - payees.length);
  for (const address of payees) await chain.pay({ address, amount: "0.001" });
  return chain.mine(1);
}
