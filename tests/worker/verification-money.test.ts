import { env } from "cloudflare:workers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { VERIFICATION_MESSAGES, verificationDueAt } from "~/lib/verification";
import { LEVEL_MONEY_MESSAGES } from "~/lib/verification-money";
import { withdrawableCents } from "~/server/ledger/figures.server";
import {
  appEnv,
  countRows,
  createUser,
  db,
  dbRefusal,
  ensureDepositWallets,
  getPage,
  insertTransaction,
  moneyCounts,
  postForm,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { alerts, buttonTexts, elementsWith, statuses, testIdText } from "../support/places";
import { markVerified, registeredAt, setVerificationCase } from "../support/verification-state";

const DAY = 24 * 60 * 60 * 1000;
const newKey = () => crypto.randomUUID();
/** A page's text as a person reads it (React escapes apostrophes and ampersands in the HTML). */
const readable = async (response: Response) =>
  (await response.text()).replaceAll("&#x27;", "'").replaceAll("&#39;", "'").replaceAll("&amp;", "&");

/** The notice of what the client's level allows, above the money form (app/components/verification-money-notice.tsx). */
const levelNotice = (html: string) => testIdText(html, "verification-level") ?? "";
const levelLinks = (html: string) => elementsWith(html, "data-testid", "verification-level")[0] ?? "";
/** What the form's banner (or the client page's) says after a post. */
const refusal = async (response: Response) => alerts(await response.text());

beforeAll(async () => {
  await ensureDepositWallets();
});

afterEach(() => {
  vi.useRealTimers();
});

async function client(options: { verified?: boolean; approvedCents?: number } = {}) {
  const created = await createUser({ firstName: "Vera" });
  if (options.verified) await markVerified(created.id);
  if (options.approvedCents) {
    await insertTransaction(created.id, { status: "approved", amountCents: options.approvedCents });
  }
  return { ...created, cookie: await sessionCookieFor(created.id) };
}

const deposit = (cookie: string, amount: string, path = "/deposit") =>
  postForm(path, { amount, walletType: "BTC", stock: "AAPL", idempotencyKey: newKey() }, { cookie });

const withdraw = (cookie: string, amount: string) =>
  postForm(
    "/withdraw",
    {
      amount,
      cryptoCurrency: "ETH",
      walletAddress: "0x1111111111111111111111111111111111111111",
      idempotencyKey: newKey(),
    },
    { cookie },
  );

describe("an unverified client's deposits", () => {
  const limitCents = appEnv.UNVERIFIED_DEPOSIT_LIMIT * 100;

  it("are accepted up to the limit (pending and approved, deposits and stock deposits), then refused with what is left", async () => {
    const person = await client();
    await insertTransaction(person.id, { status: "approved", amountCents: limitCents - 90_000 });
    expect((await deposit(person.cookie, "500.00")).status).toBe(302);
    expect((await deposit(person.cookie, "300.00", "/stocks/AAPL/deposit")).status).toBe(302);
    const before = await moneyCounts(person.id);
    const refused = await deposit(person.cookie, "100.01");
    expect(refused.status).toBe(409);
    expect(await refusal(refused)).toContain(LEVEL_MONEY_MESSAGES.depositLimit(limitCents, 10_000));
    expect(await moneyCounts(person.id)).toEqual(before);
    // What is left still goes through, to the cent.
    expect((await deposit(person.cookie, "100.00")).status).toBe(302);
  });

  it("cannot pass the limit together: of 10 parallel $500 requests against $2,000, four are stored", async () => {
    const person = await client();
    const responses = await Promise.all(Array.from({ length: 10 }, () => deposit(person.cookie, "500.00")));
    expect(responses.filter((r) => r.status === 302)).toHaveLength(limitCents / 50_000);
    expect(await countRows("transactions", "user_id = ? AND status = 'pending'", person.id)).toBe(limitCents / 50_000);
  });

  it("show on the deposit page before the form is filled in, with the days left and the way to verify", async () => {
    const person = await client();
    await insertTransaction(person.id, { amountCents: 50_000 });
    const page = await readable(await getPage("/deposit", person.cookie));
    const notice = levelNotice(page);
    expect(notice).toContain("Account level: Unverified");
    expect(notice).toContain("You can still deposit $1,500.00.");
    expect(notice).toMatch(/\d+ days? left to verify your identity/);
    expect(levelLinks(page)).toContain('href="/account/verification"');
  });

  it("close the form at the limit, saying why, instead of a Submit that can only be refused", async () => {
    const person = await client();
    await insertTransaction(person.id, { amountCents: limitCents });
    const page = await readable(await getPage("/deposit", person.cookie));
    expect(levelNotice(page)).toContain(
      "have reached the $2,000.00 an account may hold before its identity is verified",
    );
    expect(levelNotice(page)).not.toContain("You can still deposit $0.00.");
    expect(alerts(page)).toContain(levelNotice(page));
    const stock = await readable(await getPage("/stocks/AAPL/deposit", person.cookie));
    expect(levelNotice(stock)).toContain(
      "have reached the $2,000.00 an account may hold before its identity is verified",
    );
  });

  it("say the documents are being reviewed while they are, not the days left and a page that can change nothing", async () => {
    const person = await client();
    await setVerificationCase(person.id, "submitted");
    for (const path of ["/deposit", "/withdraw"]) {
      const page = await readable(await getPage(path, person.cookie));
      expect(levelNotice(page), path).toContain(VERIFICATION_MESSAGES.inReview);
      expect(page, path).not.toMatch(/days? left to verify your identity/);
      expect(page, path).not.toContain('href="/account/verification"');
    }
  });

  it("are not limited once the client is verified", async () => {
    const person = await client({ verified: true });
    expect((await deposit(person.cookie, "50000.00")).status).toBe(302);
    expect(await readable(await getPage("/deposit", person.cookie))).not.toContain("Account level");
  });
});

describe("a Restricted client (unverified past the deadline)", () => {
  it("cannot request a deposit or a stock deposit; the pages say why and how to finish; the ledger stays", async () => {
    const person = await client({ approvedCents: 10_000 });
    // The clock is the deadline's: 14 days after verification began, for an account older than that.
    const introducedAt = appEnv.VERIFICATION_INTRODUCED_AT;
    await registeredAt(person.id, introducedAt - 30 * DAY);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(verificationDueAt(introducedAt - 30 * DAY, introducedAt) + 1);
    const cookie = await sessionCookieFor(person.id);
    const before = await moneyCounts(person.id);
    for (const path of ["/deposit", "/stocks/AAPL/deposit"]) {
      const refused = await deposit(cookie, "10.00", path);
      expect(refused.status).toBe(403);
      expect(await refusal(refused)).toContain(VERIFICATION_MESSAGES.restricted);
      const page = await readable(await getPage(path, cookie));
      expect(levelNotice(page)).toContain("Account level: Restricted");
      expect(levelNotice(page)).toContain(VERIFICATION_MESSAGES.restricted);
      expect(levelLinks(page)).toContain('href="/account/verification"');
    }
    expect(await moneyCounts(person.id)).toEqual(before);
    expect(await withdrawableCents(db, person.id)).toBe(10_000);
  });

  it("is no longer restricted once verified", async () => {
    const person = await client({ verified: true });
    const introducedAt = appEnv.VERIFICATION_INTRODUCED_AT;
    await registeredAt(person.id, introducedAt - 30 * DAY);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(verificationDueAt(introducedAt, introducedAt) + DAY);
    expect((await deposit(await sessionCookieFor(person.id), "10.00")).status).toBe(302);
  });
});

describe("an unverified client's withdrawal", () => {
  it("is refused with the way to verify, before any code is asked, and stores nothing", async () => {
    const person = await client({ approvedCents: 10_000 });
    await setVerificationCase(person.id, "submitted");
    const before = await moneyCounts(person.id);
    const refused = await withdraw(person.cookie, "10.00");
    expect(refused.status).toBe(403);
    const notice = levelNotice(await refused.text());
    expect(notice).toContain(VERIFICATION_MESSAGES.verifyBeforeWithdrawing);
    // The documents are in review: the page says so, rather than send them to verify again.
    expect(notice).toContain(VERIFICATION_MESSAGES.inReview);
    expect(await moneyCounts(person.id)).toEqual(before);
  });

  it("page shows the refusal and the link instead of the form", async () => {
    const person = await client({ approvedCents: 10_000 });
    const page = await readable(await getPage("/withdraw", person.cookie));
    expect(levelNotice(page)).toContain("Account level: Unverified");
    expect(levelNotice(page)).toContain(VERIFICATION_MESSAGES.verifyBeforeWithdrawing);
    expect(levelLinks(page)).toContain('href="/account/verification"');
    expect(buttonTexts(page)).not.toContain("Submit Withdrawal");
  });
});

describe("a verified client's withdrawals", () => {
  const dayLimit = appEnv.WITHDRAWAL_LIMIT_DAY * 100;
  const monthLimit = appEnv.WITHDRAWAL_LIMIT_MONTH * 100;

  it("are limited per rolling 24 hours, pending and approved counting, with the amount still allowed", async () => {
    const person = await client({ verified: true, approvedCents: 10_000_000 });
    // Yesterday's (over 24 hours ago) no longer counts; a rejected one never did.
    await insertTransaction(person.id, {
      transactionType: "withdraw",
      amountCents: 900_000,
      createdAt: Date.now() - DAY - 60_000,
    });
    await insertTransaction(person.id, { transactionType: "withdraw", status: "rejected", amountCents: 900_000 });
    await insertTransaction(person.id, {
      transactionType: "withdraw",
      status: "approved",
      amountCents: dayLimit - 700_000,
    });
    expect((await withdraw(person.cookie, "2000.00")).status).toBe(302);
    const before = await moneyCounts(person.id);
    const refused = await withdraw(person.cookie, "5000.01");
    expect(refused.status).toBe(409);
    expect(await refusal(refused)).toContain(LEVEL_MONEY_MESSAGES.withdrawalLimit("day", dayLimit, 500_000));
    expect(await moneyCounts(person.id)).toEqual(before);
    expect((await withdraw(person.cookie, "5000.00")).status).toBe(302);
  });

  it("are limited per rolling 30 days", async () => {
    const person = await client({ verified: true, approvedCents: 20_000_000 });
    await insertTransaction(person.id, {
      transactionType: "withdraw",
      status: "approved",
      amountCents: monthLimit - 300_000,
      createdAt: Date.now() - 29 * DAY,
    });
    const refused = await withdraw(person.cookie, "3000.01");
    expect(await refusal(refused)).toContain(LEVEL_MONEY_MESSAGES.withdrawalLimit("month", monthLimit, 300_000));
    expect((await withdraw(person.cookie, "3000.00")).status).toBe(302);
  });

  it("cannot pass the day's limit together: of 20 parallel $2,000 requests, only those that fit are stored", async () => {
    const person = await client({ verified: true, approvedCents: 10_000_000 });
    const responses = await Promise.all(Array.from({ length: 20 }, () => withdraw(person.cookie, "2000.00")));
    const fit = Math.floor(dayLimit / 200_000);
    expect(responses.filter((r) => r.status === 302)).toHaveLength(fit);
    for (const response of responses.filter((r) => r.status !== 302)) {
      expect(await refusal(response)).toContainEqual(
        expect.stringContaining("This is over your withdrawal limit of $25,000.00 per 24 hours"),
      );
    }
    expect(await countRows("transactions", "user_id = ? AND transaction_type = 'withdraw'", person.id)).toBe(fit);
    expect(await countRows("withdrawal_wallets", "user_id = ?", person.id)).toBe(fit);
  });

  it("page shows what is left of each limit before the form", async () => {
    const person = await client({ verified: true, approvedCents: 10_000_000 });
    await insertTransaction(person.id, { transactionType: "withdraw", amountCents: 100_000 });
    const page = await readable(await getPage("/withdraw", person.cookie));
    const notice = levelNotice(page);
    expect(notice).toContain("Account level: Verified");
    expect(notice).toContain("$24,000.00 of $25,000.00 left per 24 hours");
    expect(notice).toContain("$99,000.00 of $100,000.00 left per 30 days");
    expect(buttonTexts(page)).toContain("Submit Withdrawal");
  });
});

describe("approving an unverified client's withdrawal", () => {
  it("is refused on the client page and changes nothing", async () => {
    const admin = await signedInAdmin();
    const person = await client({ approvedCents: 10_000 });
    const id = await insertTransaction(person.id, { transactionType: "withdraw", amountCents: 4_000 });
    const response = await postForm(
      `/user/${person.id}`,
      { intent: "approve", transactionId: String(id) },
      { cookie: admin.cookie },
    );
    expect(await refusal(response)).toContain(LEVEL_MONEY_MESSAGES.approvalNeedsVerifiedClient);
    expect(await countRows("transactions", "id = ? AND status = 'pending'", id)).toBe(1);
    expect(await countRows("audit_log", "target = ?", `transaction:${id}`)).toBe(0);
    // A deposit of the same client is approved as before.
    const depositId = await insertTransaction(person.id, { amountCents: 4_000 });
    const approved = await postForm(
      `/user/${person.id}`,
      { intent: "approve", transactionId: String(depositId) },
      { cookie: admin.cookie },
    );
    expect(statuses(await approved.text())).toContain("Transaction approved");
  });

  it("is refused as a four-eyes proposal, and when a proposal's client is no longer verified at its approval", async () => {
    const maker = await signedInAdmin();
    const checker = await signedInAdmin();
    const threshold = appEnv.FOUR_EYES_THRESHOLD * 100;
    const person = await client({ approvedCents: threshold * 2 });
    const id = await insertTransaction(person.id, { transactionType: "withdraw", amountCents: threshold });
    const form = { intent: "approve", transactionId: String(id) };
    expect(await refusal(await postForm(`/user/${person.id}`, form, { cookie: maker.cookie }))).toContain(
      LEVEL_MONEY_MESSAGES.approvalNeedsVerifiedClient,
    );
    expect(await countRows("proposals", "transaction_id = ?", id)).toBe(0);

    await markVerified(person.id);
    expect(statuses(await (await postForm(`/user/${person.id}`, form, { cookie: maker.cookie })).text())).toContain(
      PROPOSAL_MESSAGES.awaiting,
    );
    // The reviewer asked for more information meanwhile: the client is no longer verified.
    await setVerificationCase(person.id, "more_info_needed");
    const proposal = await env.DB.prepare("SELECT id FROM proposals WHERE transaction_id = ?")
      .bind(id)
      .first<{ id: number }>();
    const approval = await postForm(
      `/user/${person.id}`,
      { intent: "approveProposal", proposalId: String(proposal?.id) },
      { cookie: checker.cookie },
    );
    expect(await refusal(approval)).toContain(LEVEL_MONEY_MESSAGES.approvalNeedsVerifiedClient);
    expect(await countRows("transactions", "id = ? AND status = 'pending'", id)).toBe(1);
  });

  it("is refused by the database itself, whatever the application does", async () => {
    const { id: adminId } = await createUser({ role: "admin" });
    const person = await client({ approvedCents: 10_000 });
    const id = await insertTransaction(person.id, { transactionType: "withdraw", amountCents: 4_000 });
    const approve = () =>
      env.DB.prepare("UPDATE transactions SET status = 'approved', decided_by = ?, decided_at = ? WHERE id = ?")
        .bind(adminId, Date.now(), id)
        .run();
    expect(await dbRefusal(approve())).toMatch(/a withdrawal is approved only for a verified client/);
    expect(await countRows("transactions", "id = ? AND status = 'pending'", id)).toBe(1);
    await markVerified(person.id);
    await approve();
    expect(await countRows("transactions", "id = ? AND status = 'approved'", id)).toBe(1);
  });
});
