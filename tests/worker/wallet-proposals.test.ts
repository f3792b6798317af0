import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { countRows, createUser, ensureDepositWallets, getPage, postForm, signedInAdmin } from "../support/fixtures";
import { elementsWith, readText, refusals, statuses, testIdTexts } from "../support/places";

/**
 * A deposit-wallet change the desk proposes: the modal shows a change that already waits (and offers no second
 * one), and the proposer may give a reason that the second admin reads on the card and in the mail.
 */

type Wallet = { id: number; walletType: string; walletAddress: string };

let eth: Wallet;
const NEW_ADDRESSES = ["0x3333333333333333333333333333333333333333", "0x4444444444444444444444444444444444444444"];

beforeAll(async () => {
  const wallets = await ensureDepositWallets();
  const found = wallets.find((w) => w.walletType === "ETH");
  if (!found) throw new Error("no ETH wallet");
  eth = found;
});

const walletForm = (address: string, fields: Record<string, string> = {}) => ({
  intent: "wallets",
  [`wallet-${eth.id}`]: address,
  [`was-${eth.id}`]: eth.walletAddress,
  ...fields,
});

/** Closes every change of the ETH wallet still waiting, as a second admin's rejection would. */
/** Rejects every waiting wallet change, in the name of an owner (the database refuses a decision by anyone else). */
const closeWaiting = async () => {
  const decider = await createUser({ role: "admin" });
  await env.DB.prepare(
    "UPDATE proposals SET status = 'rejected', decided_by = ?, decided_at = ? WHERE kind = 'wallet_change' AND status = 'pending'",
  )
    .bind(decider.id, Date.now())
    .run();
};

/** The wallet's address field in the desk's modal, as the server renders it. */
/** The note beside the ETH wallet's field that a change of it waits for a second admin; null when none. */
const awaitingNote = (html: string) => {
  const [note] = elementsWith(html, "id", `wallet-${eth.id}-awaiting`);
  return note === undefined ? null : readText(note);
};
const fieldOf = (html: string) => new RegExp(`<input[^>]*name="wallet-${eth.id}"[^>]*>`).exec(html)?.[0] ?? "";

describe("the wallets modal", () => {
  it("shows a change waiting for a second admin beside its wallet, with the field not editable", async () => {
    await closeWaiting();
    const maker = await signedInAdmin();
    const before = await (await getPage("/admin", maker.cookie)).text();
    expect(fieldOf(before)).not.toMatch(/\sdisabled=""/);
    expect(awaitingNote(before)).toBeNull();

    const proposed = await postForm("/admin", walletForm(NEW_ADDRESSES[0] as string), { cookie: maker.cookie });
    expect(statuses(await proposed.text())).toContain(PROPOSAL_MESSAGES.awaiting);

    // Any admin reopening the modal sees it, the proposer and the others alike.
    for (const admin of [maker, await signedInAdmin()]) {
      const html = await (await getPage("/admin", admin.cookie)).text();
      expect(awaitingNote(html)).toBe(`${PROPOSAL_MESSAGES.awaiting}: ${NEW_ADDRESSES[0]}`);
      expect(fieldOf(html)).toMatch(/\sdisabled=""/);
      expect(fieldOf(html)).toContain(`value="${eth.walletAddress}"`);
    }
    await closeWaiting();
    expect(fieldOf(await (await getPage("/admin", maker.cookie)).text())).not.toMatch(/\sdisabled=""/);
  });
});

describe("a wallet change's reason", () => {
  it("goes with the proposal: stored, on the card and in the mail to the other admins", async () => {
    await closeWaiting();
    const maker = await signedInAdmin();
    const checker = await signedInAdmin();
    const reason = "The exchange rotated our ETH deposit address (ticket 8812)";
    const proposed = await postForm("/admin", walletForm(NEW_ADDRESSES[1] as string, { reason: `  ${reason} ` }), {
      cookie: maker.cookie,
    });
    expect(statuses(await proposed.text())).toContain(PROPOSAL_MESSAGES.awaiting);
    const row = await env.DB.prepare(
      "SELECT id, note FROM proposals WHERE kind = 'wallet_change' AND status = 'pending' AND new_address = ?",
    )
      .bind(NEW_ADDRESSES[1])
      .first<{ id: number; note: string | null }>();
    expect(row?.note).toBe(reason);
    expect(
      await countRows(
        "email_outbox",
        "template = 'proposal_waiting' AND to_address = ? AND instr(payload, ?) > 0",
        checker.email,
        reason,
      ),
    ).toBe(1);
    const card = await (await getPage("/admin", checker.cookie)).text();
    expect(testIdTexts(card, "proposal")).toContainEqual(expect.stringContaining(`Reason: ${reason}`));
  });

  it("may be left out; one over 500 characters is refused and proposes nothing", async () => {
    await closeWaiting();
    const maker = await signedInAdmin();
    const tooLong = await postForm("/admin", walletForm(NEW_ADDRESSES[0] as string, { reason: "x".repeat(501) }), {
      cookie: maker.cookie,
    });
    expect(tooLong.status).toBe(400);
    expect(refusals(await tooLong.text())).toContain(PROPOSAL_MESSAGES.reasonTooLong);
    expect(await countRows("proposals", "kind = 'wallet_change' AND status = 'pending'")).toBe(0);

    const without = await postForm("/admin", walletForm(NEW_ADDRESSES[0] as string, { reason: "  " }), {
      cookie: maker.cookie,
    });
    expect(statuses(await without.text())).toContain(PROPOSAL_MESSAGES.awaiting);
    const row = await env.DB.prepare(
      "SELECT note FROM proposals WHERE kind = 'wallet_change' AND status = 'pending'",
    ).first<{ note: string | null }>();
    expect(row?.note).toBeNull();
  });
});
