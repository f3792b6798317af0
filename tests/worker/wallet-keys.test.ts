import { env } from "cloudflare:workers";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { beforeAll, describe, expect, it } from "vitest";
import { deriveAddress, KEY_MESSAGES, readAccountKey } from "~/lib/chain/addresses";
import { WALLET_KEY_MESSAGES } from "~/lib/chain/wallet-messages";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { renderStoredEmail } from "~/server/mail/templates.server";
import { BIP84, ETHEREUM, TRON } from "../support/chain-vectors";
import {
  appEnv,
  countRows,
  createUser,
  ensureDepositWallets,
  getPage,
  postForm,
  signedInAdmin,
} from "../support/fixtures";
import { mailsTo } from "../support/notifications";
import { alerts, elementsWith, fieldHint, fieldValue, statuses, testIdText } from "../support/places";

/**
 * A watched chain's deposit wallet given the account's extended public key (docs/product.md, "Deposit wallets"):
 * the proposer's modal takes it, the second admin's card shows its first addresses as the Worker derives them,
 * approving stores it, and every admin's mail lists the same addresses. A key that does not read, a key for a
 * wallet whose chain is not watched, and above all a private key are refused where the modal shows errors, and
 * change nothing.
 */

type Wallet = { id: number; walletType: string; walletAddress: string };

const TRC20_ADDRESS = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
// BIP84 publishes the first two; the third is the same key's next address.
const BTC_FIRST = [BIP84.first.address, BIP84.second.address];

/** The BIP39 test mnemonic's Ethereum account private key: what a careless export hands over instead of its xpub. */
const ETH_XPRV = HDKey.fromMasterSeed(
  mnemonicToSeedSync("abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about"),
).derive("m/44'/60'/0'").privateExtendedKey;

const wallets = async (): Promise<Wallet[]> =>
  (
    await env.DB.prepare(
      "SELECT id, wallet_type AS walletType, wallet_address AS walletAddress FROM deposit_wallets ORDER BY id",
    ).all<Wallet>()
  ).results;

beforeAll(async () => {
  await ensureDepositWallets();
  for (const [type, address] of [
    ["USDT (ERC20)", "0xdAC17F958D2ee523a2206206994597C13D831ec7"],
    ["USDT (TRC20)", TRC20_ADDRESS],
  ]) {
    await env.DB.prepare("INSERT OR IGNORE INTO deposit_wallets (wallet_type, wallet_address) VALUES (?, ?)")
      .bind(type, address)
      .run();
  }
});

/** The modal's form as it is sent: every wallet with its value (the typed one where given) and the one it showed. */
async function saveWallets(cookie: string, typed: Record<string, string>) {
  const fields: Record<string, string> = { intent: "wallets" };
  for (const w of await wallets()) {
    fields[`wallet-${w.id}`] = typed[w.walletType] ?? w.walletAddress;
    fields[`was-${w.id}`] = w.walletAddress;
  }
  return postForm("/admin", fields, { cookie });
}

/** Rejects every waiting wallet change, in the name of an owner, so each case starts from nothing waiting. */
async function closeWaiting() {
  const decider = await createUser({ role: "admin" });
  await env.DB.prepare(
    "UPDATE proposals SET status = 'rejected', decided_by = ?, decided_at = ? WHERE kind = 'wallet_change' AND status = 'pending'",
  )
    .bind(decider.id, Date.now())
    .run();
}

/** The key addresses a proposal card shows, for the card whose description holds `needle`; null when it shows none. */
function cardAddresses(html: string, needle: string): string | null | undefined {
  const card = elementsWith(html, "data-testid", "proposal").find((markup) => markup.includes(needle));
  return card === undefined ? undefined : testIdText(card, "key-addresses");
}

const preview = (addresses: readonly string[]) => [WALLET_KEY_MESSAGES.preview, ...addresses].join(" ");

describe("a key change", () => {
  it("proposed for BTC and ETH in one save, shows each key's first addresses to the second admin, who applies it", async () => {
    await closeWaiting();
    const maker = await signedInAdmin();
    const checker = await signedInAdmin();
    const before = await wallets();
    const btcKey = readAccountKey(BIP84.accountZpub, "bitcoin");
    if (!btcKey.ok) throw new Error(btcKey.error);
    const btcThird = deriveAddress(btcKey.key, 2);

    const saved = await saveWallets(maker.cookie, { BTC: ` ${BIP84.accountZpub} `, ETH: ETHEREUM.accountXpub });
    expect(statuses(await saved.text())).toContain(PROPOSAL_MESSAGES.awaiting);
    // Stored as typed, trimmed; nothing changes before the second admin approves.
    expect(await countRows("proposals", "status = 'pending' AND new_address = ?", BIP84.accountZpub)).toBe(1);
    expect(await wallets()).toEqual(before);

    const desk = await (await getPage("/admin", checker.cookie)).text();
    expect(cardAddresses(desk, "Wallet BTC:")).toBe(preview([...BTC_FIRST, btcThird]));
    expect(cardAddresses(desk, "Wallet ETH:")).toBe(preview(ETHEREUM.addresses));

    const ids = await env.DB.prepare(
      "SELECT id FROM proposals WHERE kind = 'wallet_change' AND status = 'pending' ORDER BY id",
    ).all<{ id: number }>();
    for (const { id } of ids.results) {
      const approved = await postForm(
        "/admin",
        { intent: "approveProposal", proposalId: String(id) },
        { cookie: checker.cookie },
      );
      expect(statuses(await approved.text())).toContain(PROPOSAL_MESSAGES.approved);
    }
    const after = Object.fromEntries((await wallets()).map((w) => [w.walletType, w.walletAddress]));
    expect(after).toMatchObject({ BTC: BIP84.accountZpub, ETH: ETHEREUM.accountXpub });

    // Every admin is told the wallet now holds a key, with the addresses to compare.
    const mails = (await mailsTo(maker.email, "deposit_wallet_changed")).map((row) =>
      renderStoredEmail("deposit_wallet_changed", JSON.parse(row.payload), appEnv),
    );
    const btcMail = mails.find((mail) => mail.subject === "Deposit wallet changed: BTC");
    expect(btcMail?.text).toContain("The BTC deposit wallet now holds an extended public key");
    expect(btcMail?.text).toContain(`New extended public key: ${BIP84.accountZpub}`);
    expect(btcMail?.text).toContain(
      `First address: ${BTC_FIRST[0]}\n\nSecond address: ${BTC_FIRST[1]}\n\nThird address: ${btcThird}`,
    );
    const ethMail = mails.find((mail) => mail.subject === "Deposit wallet changed: ETH");
    expect(ethMail?.text).toContain(`Third address: ${ETHEREUM.addresses[2]}`);

    // The modal now shows the stored key in its field, which says what it takes.
    const modal = await (await getPage("/admin", maker.cookie)).text();
    const btc = before.find((w) => w.walletType === "BTC") as Wallet;
    const trc = before.find((w) => w.walletType === "USDT (TRC20)") as Wallet;
    expect(fieldValue(modal, `wallet-${btc.id}`)).toBe(BIP84.accountZpub);
    expect(fieldHint(modal, `wallet-${btc.id}`)).toBe(WALLET_KEY_MESSAGES.takesKey);
    expect(fieldHint(modal, `wallet-${trc.id}`)).toBe(WALLET_KEY_MESSAGES.takesAddress);
  });

  it("to an address keeps the address mail, and the card shows no key addresses", async () => {
    await closeWaiting();
    const maker = await signedInAdmin();
    const checker = await signedInAdmin();
    const address = "0x3333333333333333333333333333333333333333";
    expect(statuses(await (await saveWallets(maker.cookie, { ETH: address })).text())).toContain(
      PROPOSAL_MESSAGES.awaiting,
    );
    const desk = await (await getPage("/admin", checker.cookie)).text();
    expect(cardAddresses(desk, `→ ${address}`)).toBeNull();
  });
});

describe("a refused key", () => {
  /** What a refused save must leave as it was: wallets, proposals, audit rows and mail. */
  const state = async () => ({
    wallets: await wallets(),
    proposals: await countRows("proposals"),
    audit: await countRows("audit_log"),
    outbox: await countRows("email_outbox"),
  });

  it.each([
    ["an xpub on BTC", { BTC: ETHEREUM.accountXpub }, `BTC: ${KEY_MESSAGES.wrongKind("bitcoin", "xpub")}`],
    ["a zpub on ETH", { ETH: BIP84.accountZpub }, `ETH: ${KEY_MESSAGES.wrongKind("ethereum", "zpub")}`],
    ["a master key on BTC", { BTC: BIP84.rootZpub }, `BTC: ${KEY_MESSAGES.wrongDepth("bitcoin", 0)}`],
    [
      "a key on USDT (TRC20)",
      { "USDT (TRC20)": TRON.accountXpub },
      `USDT (TRC20): ${WALLET_KEY_MESSAGES.notWatched("USDT (TRC20)")}`,
    ],
    [
      "two at once",
      { BTC: ETHEREUM.accountXpub, ETH: BIP84.accountZpub },
      `BTC: ${KEY_MESSAGES.wrongKind("bitcoin", "xpub")}; ETH: ${KEY_MESSAGES.wrongKind("ethereum", "zpub")}`,
    ],
  ])("%s is named in the modal's banner and changes nothing", async (_case, typed, message) => {
    await closeWaiting();
    const maker = await signedInAdmin();
    const before = await state();
    const refused = await saveWallets(maker.cookie, typed);
    expect(refused.status).toBe(400);
    expect(alerts(await refused.text())).toContain(message);
    expect(await state()).toEqual(before);
  });

  it("on USDT (TRC20) says the wallet takes an address because Tron is not watched", () => {
    expect(WALLET_KEY_MESSAGES.notWatched("USDT (TRC20)")).toBe(
      "This wallet takes an address, not an extended public key: payments on Tron are not watched",
    );
  });
});

describe("a private key", () => {
  it("is refused on every wallet and leaves no trace in proposals, the audit log or the outbox", async () => {
    await closeWaiting();
    const maker = await signedInAdmin();
    const checker = await signedInAdmin();
    expect(ETH_XPRV.slice(0, 4)).toBe("xprv");
    // Alone, and beside a good key that would otherwise be proposed with it.
    const attempts: Array<[Record<string, string>, string]> = [
      [{ ETH: ETH_XPRV }, `ETH: ${KEY_MESSAGES.privateKey}`],
      [{ "USDT (TRC20)": ETH_XPRV }, `USDT (TRC20): ${KEY_MESSAGES.privateKey}`],
      [{ BTC: BIP84.accountZprv, "USDT (ERC20)": ETHEREUM.accountXpub }, `BTC: ${KEY_MESSAGES.privateKey}`],
    ];
    for (const [typed, message] of attempts) {
      const refused = await saveWallets(maker.cookie, typed);
      expect(refused.status).toBe(400);
      const page = await refused.text();
      expect(alerts(page)).toContain(message);
      // The reply does not echo it either (the modal keeps what was typed in the browser, not from the server).
      for (const secret of Object.values(typed))
        if (secret !== ETHEREUM.accountXpub) expect(page).not.toContain(secret);
    }
    const secrets = [ETH_XPRV, BIP84.accountZprv];
    // Any 20 characters of a key's body would identify it: look for its middle, not just the whole key.
    const traces = secrets.flatMap((key) => [key, key.slice(40, 60)]);
    for (const table of ["proposals", "audit_log", "email_outbox", "deposit_wallets"]) {
      const rows = JSON.stringify((await env.DB.prepare(`SELECT * FROM ${table}`).all()).results);
      for (const trace of traces) expect(rows, table).not.toContain(trace);
    }
    expect(await countRows("proposals", "status = 'pending'")).toBe(0);
    const desk = await (await getPage("/admin", checker.cookie)).text();
    for (const trace of traces) expect(desk).not.toContain(trace);
  });
});
