import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { formatCents } from "~/lib/format";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { transactionReference } from "~/lib/reference";
import { ENTRY_MESSAGES } from "~/lib/schemas/admin";
import { rejectProposal } from "~/server/admin/proposal-decisions.server";
import { proposeLedgerEntry } from "~/server/admin/proposals.server";
import { renderStoredEmail } from "~/server/mail/templates.server";
import {
  appEnv,
  countRows,
  createUser,
  db,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { alerts, refusals, replyToast, statuses } from "../support/places";
import { markVerified } from "../support/verification-state";

/**
 * The client hears about money the desk posts to their account: every admin ledger entry, direct or by an
 * approved proposal, mails the client in the entry's own batch, with what was posted, the amount, the reference
 * and the admin's reason, which the client's History shows too.
 */
type Admin = Awaited<ReturnType<typeof signedInAdmin>>;
let admin: Admin;
let checker: Admin;

beforeAll(async () => {
  admin = await signedInAdmin();
  checker = await signedInAdmin();
});

const newKey = () => crypto.randomUUID();

const entry = (clientId: string, fields: Record<string, string>, idempotencyKey = newKey()) =>
  postForm(`/user/${clientId}`, { intent: "entry", idempotencyKey, ...fields }, { cookie: admin.cookie });

/** The client's entry mails, oldest first: their stored data. */
async function entryMails(email: string) {
  const { results } = await env.DB.prepare(
    "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'entry_posted' ORDER BY id",
  )
    .bind(email)
    .all<{ payload: string }>();
  return results.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
}

const entriesOf = (userId: string) =>
  env.DB.prepare(
    "SELECT id, transaction_type, amount_cents, memo FROM transactions WHERE user_id = ? AND created_by IS NOT NULL ORDER BY id",
  )
    .bind(userId)
    .all<{ id: number; transaction_type: string; amount_cents: number; memo: string | null }>()
    .then((r) => r.results);

describe("a direct entry", () => {
  it("mails the client once, in its batch: what was posted, the amount, the reference and the reason", async () => {
    const client = await createUser({ firstName: "Jane" });
    const key = newKey();
    const fields = { type: "deposit", amount: "250.00", reason: "  Referral bonus for March  " };
    const response = await entry(client.id, fields, key);
    expect(await replyToast(await response.text())).toEqual({ type: "success", text: "Deposit of $250.00 recorded" });

    const [posted] = await entriesOf(client.id);
    expect(posted).toMatchObject({
      transaction_type: "deposit",
      amount_cents: 25_000,
      memo: "Referral bonus for March",
    });
    const mails = await entryMails(client.email);
    expect(mails).toEqual([
      {
        entryType: "deposit",
        amount: 250,
        memo: "Referral bonus for March",
        postedAt: expect.any(Number),
        transactionId: posted?.id,
        name: "Jane",
      },
    ]);

    const mail = renderStoredEmail("entry_posted", mails[0], appEnv);
    expect(mail.subject).toBe("Deposit of $250.00 posted to your account");
    expect(mail.text).toContain("Hello Jane,");
    expect(mail.text).toContain("Our desk posted a deposit of $250.00 to your account.");
    expect(mail.text).toContain(`Reference: ${transactionReference(posted?.id ?? 0)}`);
    expect(mail.text).toContain("Amount: $250.00");
    expect(mail.text).toContain("Reason: Referral bonus for March");
    expect(
      await countRows("audit_log", "action = 'ledger.entry' AND detail ->> 'memo' = 'Referral bonus for March'"),
    ).toBe(1);

    // The same form again is the same entry: no second row, no second mail.
    await entry(client.id, fields, key);
    expect(await entriesOf(client.id)).toHaveLength(1);
    expect(await entryMails(client.email)).toHaveLength(1);
  });

  it("mails one without a reason too, naming a withdrawal or loss as money out, with its pair", async () => {
    const client = await createUser();
    await markVerified(client.id);
    await insertTransaction(client.id, { status: "approved", amountCents: 100_000 });
    await entry(client.id, { type: "loss", amount: "40", tradingPair: "BTC/USD" });
    await entry(client.id, { type: "withdraw", amount: "10.50", reason: "" });

    const rows = await entriesOf(client.id);
    expect(rows.map((row) => row.memo)).toEqual([null, null]);
    const [loss, withdrawal] = (await entryMails(client.email)).map((data) =>
      renderStoredEmail("entry_posted", data, appEnv),
    );
    expect(loss?.subject).toBe("Loss of $40.00 posted to your account");
    expect(loss?.text).toContain("Our desk posted a loss of $40.00 from your account.");
    expect(loss?.text).toContain("Trading pair: BTC/USD");
    expect(withdrawal?.text).toContain("Our desk posted a withdrawal of $10.50 from your account.");
    expect(withdrawal?.text).toContain(`Reference: ${transactionReference(rows[1]?.id ?? 0)}`);
    expect(withdrawal?.text).not.toContain("Reason");
  });

  it("writes no mail when the entry is refused", async () => {
    const client = await createUser();
    await markVerified(client.id);
    // Overdrawing: refused by the insert itself.
    expect(
      refusals(await (await entry(client.id, { type: "withdraw", amount: "10", reason: "Fee" })).text()),
    ).toContain(ENTRY_MESSAGES.wouldGoNegative);
    // A reason over 500 characters: refused before anything is written.
    const tooLong = await entry(client.id, { type: "deposit", amount: "10", reason: "x".repeat(501) });
    expect(tooLong.status).toBe(400);
    expect(refusals(await tooLong.text())).toContain(PROPOSAL_MESSAGES.reasonTooLong);
    expect(await entriesOf(client.id)).toEqual([]);
    expect(await entryMails(client.email)).toEqual([]);
  });

  it("is stored with its mail or not at all: an outbox that refuses the mail leaves no entry", async () => {
    const client = await createUser();
    await env.DB.exec(
      "CREATE TRIGGER refuse_entry_mail BEFORE INSERT ON email_outbox WHEN NEW.template = 'entry_posted' BEGIN SELECT RAISE(ABORT, 'outbox refused'); END",
    );
    try {
      const before = await countRows("audit_log", "action = 'ledger.entry'");
      const response = await entry(client.id, { type: "deposit", amount: "75", reason: "Goodwill" });
      expect(response.status).toBe(500);
      expect(await entriesOf(client.id)).toEqual([]);
      expect(await countRows("audit_log", "action = 'ledger.entry'")).toBe(before);
      const profile = await env.DB.prepare("SELECT balance_cents FROM profiles WHERE user_id = ?")
        .bind(client.id)
        .first<{ balance_cents: number }>();
      expect(profile?.balance_cents).toBe(0);
    } finally {
      await env.DB.exec("DROP TRIGGER refuse_entry_mail");
    }
  });
});

describe("an entry by an approved proposal", () => {
  const AMOUNT_CENTS = appEnv.FOUR_EYES_THRESHOLD * 100 + 50_000;
  const propose = (clientId: string, reason: string) =>
    proposeLedgerEntry(db, { id: admin.id, email: admin.email }, clientId, {
      type: "fee_deposit",
      amountCents: AMOUNT_CENTS,
      idempotencyKey: newKey(),
      reason,
    });

  it("mails the client once when a second admin approves it, the proposal's reason as the memo", async () => {
    const client = await createUser({ firstName: "Omar" });
    const proposed = await propose(client.id, "Account opening fee refunded");
    if (!proposed.ok) throw new Error(proposed.error);
    // Waiting for the second admin, the client has heard nothing: nothing was posted yet.
    expect(await entryMails(client.email)).toEqual([]);

    const approve = () =>
      postForm(
        "/admin",
        { intent: "approveProposal", proposalId: String(proposed.proposalId) },
        { cookie: checker.cookie },
      );
    expect(statuses(await (await approve()).text())).toContain(PROPOSAL_MESSAGES.approved);
    const [posted] = await entriesOf(client.id);
    expect(posted?.memo).toBe("Account opening fee refunded");
    const mails = await entryMails(client.email);
    expect(mails).toHaveLength(1);
    expect(mails[0]).toMatchObject({ transactionId: posted?.id, memo: "Account opening fee refunded", name: "Omar" });
    const mail = renderStoredEmail("entry_posted", mails[0], appEnv);
    expect(mail.subject).toBe(`Fee deposit of ${formatCents(AMOUNT_CENTS)} posted to your account`);
    expect(mail.text).toContain("Reason: Account opening fee refunded");

    // Approved again (a replay): decided already, nothing more.
    expect(alerts(await (await approve()).text())).toContain(PROPOSAL_MESSAGES.alreadyDecided);
    expect(await entryMails(client.email)).toHaveLength(1);
  });

  it("mails nothing when the proposal is rejected", async () => {
    const client = await createUser();
    const proposed = await propose(client.id, "Duplicate of yesterday's fee");
    if (!proposed.ok) throw new Error(proposed.error);
    const rejected = await rejectProposal(
      db,
      { id: checker.id, email: checker.email },
      proposed.proposalId,
      "Not a duplicate",
    );
    expect(rejected.ok).toBe(true);
    expect(await entriesOf(client.id)).toEqual([]);
    expect(await entryMails(client.email)).toEqual([]);
  });
});

describe("History", () => {
  it("shows the desk's reason on the entry's row, and nothing on rows without one", async () => {
    const client = await createUser();
    await entry(client.id, { type: "profit", amount: "12", tradingPair: "EUR/USD", reason: "Closed EUR/USD long" });
    await entry(client.id, { type: "deposit", amount: "5" });
    const html = await (await getPage("/transactions", await sessionCookieFor(client.id))).text();
    const rows = [...html.matchAll(/<tr[^>]*data-testid="history-row"[^>]*>([\s\S]*?)<\/tr>/g)].map((m) =>
      (m[1] ?? "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " "),
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).not.toContain("Reason:");
    expect(rows[1]).toContain("Profit Reason: Closed EUR/USD long");
  });
});
