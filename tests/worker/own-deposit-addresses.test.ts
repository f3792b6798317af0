import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { deriveAddress, readAccountKey } from "~/lib/chain/addresses";
import { CHAIN_DEPOSIT_TEXTS } from "~/lib/chain/deposit-texts";
import { WALLET_KEY_MESSAGES } from "~/lib/chain/wallet-messages";
import { walletChangesOf } from "~/server/admin/wallets.server";
import { depositAddressFor } from "~/server/chain/deposit-addresses.server";
import { chainSettings } from "~/server/chain/settings.server";
import { watchedWallet } from "~/server/chain/watched-wallets.server";
import worker from "../../workers/app";
import { ETHEREUM, TESTNET } from "../support/chain-vectors";
import { chainWorld, verifiedClient } from "../support/chain-watch";
import { createUser, db, dbRefusal, ensureDepositWallets, ORIGIN, sessionCookieFor } from "../support/fixtures";
import { buttonNames, cardTitled, imageNames, testIdTexts } from "../support/places";

/**
 * Each client's own deposit address (docs/product.md, "Deposits on chain"): given on first use at the key's next
 * index, the same on every later view, never the same as another client's, never moved.
 */
const settings = chainSettings({
  ...env,
  BITCOIN_ESPLORA_URL: "http://127.0.0.1:9/bitcoin/api",
  BITCOIN_NETWORK: "testnet",
  ETHEREUM_RPC_URL: "http://127.0.0.1:9/ethereum",
} as never);

function wallet(walletType: string, key: string) {
  const watched = watchedWallet({ walletType, walletAddress: key }, settings);
  if (!watched) throw new Error(`${walletType} is not watched`);
  return watched;
}

const btc = wallet("BTC", TESTNET.accountVpub);
const eth = wallet("ETH", ETHEREUM.accountXpub);
const usdt = wallet("USDT (ERC20)", ETHEREUM.accountXpub);
const testnetKey = readAccountKey(TESTNET.accountVpub, "bitcoin");

describe("a client's own deposit address", () => {
  it("is the key's next address, given once and the same on every later view", async () => {
    const first = await createUser();
    const second = await createUser();
    const a = await depositAddressFor(db, first.id, btc);
    const again = await depositAddressFor(db, first.id, btc);
    const b = await depositAddressFor(db, second.id, btc);
    expect(again).toBe(a);
    expect(b).not.toBe(a);
    if (!testnetKey.ok) throw new Error(testnetKey.error);
    const rows = await env.DB.prepare(
      "SELECT user_id, derivation_index, address FROM deposit_addresses WHERE key_id = ? ORDER BY derivation_index",
    )
      .bind(btc.keyId)
      .all<{ user_id: string; derivation_index: number; address: string }>();
    for (const row of rows.results) expect(row.address).toBe(deriveAddress(testnetKey.key, row.derivation_index));
    expect(rows.results.map((r) => r.user_id)).toEqual([first.id, second.id]);
    // The first client of this key gets the key's first address, as the wallet software shows it.
    expect(a).toBe(TESTNET.first);
  });

  it("is different for each of twenty clients asking at the same moment", async () => {
    const clients = await Promise.all(Array.from({ length: 20 }, () => createUser()));
    const addresses = await Promise.all(clients.map((c) => depositAddressFor(db, c.id, btc)));
    expect(new Set(addresses).size).toBe(20);
  });

  it("is one address for Ether and USDT when both wallets hold the same Ethereum key, shown with its checksum", async () => {
    const client = await createUser();
    const forEther = await depositAddressFor(db, client.id, eth);
    const forUsdt = await depositAddressFor(db, client.id, usdt);
    expect(forUsdt).toBe(forEther);
    expect(forEther).toMatch(/^0x[0-9a-fA-F]{40}$/);
    expect(forEther).not.toBe(forEther.toLowerCase());
  });

  it("is never moved to another client, nor deleted", async () => {
    const owner = await createUser();
    const other = await createUser();
    await depositAddressFor(db, owner.id, btc);
    expect(
      await dbRefusal(
        env.DB.prepare("UPDATE deposit_addresses SET user_id = ? WHERE user_id = ?").bind(other.id, owner.id).run(),
      ),
    ).toContain("never reassigned");
    expect(
      await dbRefusal(env.DB.prepare("DELETE FROM deposit_addresses WHERE user_id = ?").bind(owner.id).run()),
    ).toContain("still watched");
  });
});

describe("its shown_at, which the watcher reads for unconfirmed payments", () => {
  it("is written at most once a minute, however often /deposit shows the address", async () => {
    const client = await createUser();
    const shownAt = async () =>
      (
        await env.DB.prepare("SELECT shown_at FROM deposit_addresses WHERE user_id = ? AND key_id = ?")
          .bind(client.id, btc.keyId)
          .first<{ shown_at: number }>()
      )?.shown_at;
    const t0 = Date.now();
    await depositAddressFor(db, client.id, btc, t0);
    expect(await shownAt()).toBe(t0);
    await depositAddressFor(db, client.id, btc, t0 + 30_000);
    await depositAddressFor(db, client.id, btc, t0 + 59_000);
    expect(await shownAt()).toBe(t0);
    await depositAddressFor(db, client.id, btc, t0 + 61_000);
    expect(await shownAt()).toBe(t0 + 61_000);
  });
});

describe("which wallets are watched", () => {
  it("refuses, in the wallet change, a Bitcoin key of the network this deployment does not watch", async () => {
    const [btc] = (await ensureDepositWallets()).filter((w) => w.walletType === "BTC");
    if (!btc) throw new Error("no BTC wallet");
    const submitted = [{ id: btc.id, walletAddress: TESTNET.accountVpub, renderedAddress: btc.walletAddress }];
    expect(await walletChangesOf(db, submitted, "mainnet")).toEqual({
      ok: false,
      error: `BTC: ${WALLET_KEY_MESSAGES.otherNetwork("vpub", "mainnet")}`,
    });
    expect(await walletChangesOf(db, submitted, "testnet")).toMatchObject({ ok: true });
  });

  it("takes a key only where its chain's API is set, and a Bitcoin key only of the configured network", () => {
    const unconfigured = chainSettings({ ...env } as never);
    expect(watchedWallet({ walletType: "BTC", walletAddress: TESTNET.accountVpub }, unconfigured)).toBeNull();
    const mainnet = chainSettings({ ...env, BITCOIN_ESPLORA_URL: "http://127.0.0.1:9/b" } as never);
    expect(watchedWallet({ walletType: "BTC", walletAddress: TESTNET.accountVpub }, mainnet)).toBeNull();
    expect(
      watchedWallet({ walletType: "BTC", walletAddress: "tb1q6rz28mcfaxtmd6v789l9rrlrusdprr9pqcpvkl" }, settings),
    ).toBeNull();
    expect(watchedWallet({ walletType: "USDT (TRC20)", walletAddress: ETHEREUM.accountXpub }, settings)).toBeNull();
  });
});

// Last: it puts the test keys in the firm's wallets, which the tests above read as they are.
describe("/deposit", () => {
  it("shows the address shared by ETH and USDT (ERC-20) once, saying it takes both, with its QR code and Copy", async () => {
    const world = await chainWorld();
    const client = await verifiedClient();
    const ctx = createExecutionContext();
    const response = await worker.fetch(
      new Request(`${ORIGIN}/deposit`, { headers: { Cookie: await sessionCookieFor(client.id) } }),
      world.bindings,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const html = await response.text();
    const { btc: bitcoin, eth: ether, usdt: tether } = await world.addressesOf(client.id);
    expect(tether).toBe(ether);
    expect(testIdTexts(html, "own-address")).toEqual([bitcoin, ether]);
    const shared = cardTitled(html, "Your ETH and USDT (ERC-20) deposit address");
    expect(shared).toContain(CHAIN_DEPOSIT_TEXTS.ownAddressNote(["ETH", "USDT (ERC-20)"], 12));
    expect(shared).toContain("takes both ETH and USDT (ERC-20)");
    expect(cardTitled(html, "Your ETH deposit address")).toBeNull();
    expect(cardTitled(html, "Your USDT (ERC-20) deposit address")).toBeNull();
    expect(imageNames(html)).toContain("QR code of your ETH and USDT (ERC-20) address");
    expect(buttonNames(html)).toContain("Copy your ETH and USDT (ERC-20) address");
  });
});
