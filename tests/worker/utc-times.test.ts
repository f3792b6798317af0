import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { transactionReference } from "~/lib/reference";
import {
  createUser,
  ensureDepositWallets,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { rowCells, textOf } from "../support/tables";

/** 14:07 UTC on 5 March 2026, as every page writes a moment. */
const AT = Date.UTC(2026, 2, 5, 14, 7);
const SHOWN = "Mar 5, 2026, 2:07 PM UTC";
/** Any moment written the same way. */
const MOMENT = /[A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2} [AP]M UTC/;

let admin: Awaited<ReturnType<typeof signedInAdmin>>;
let client: { id: string; email: string; cookie: string };
let reference: string;

beforeAll(async () => {
  await ensureDepositWallets();
  admin = await signedInAdmin();
  const created = await createUser({ firstName: "Uma" });
  client = { ...created, cookie: await sessionCookieFor(created.id) };
  reference = transactionReference(
    await insertTransaction(client.id, { transactionType: "withdraw", amountCents: 1_500, createdAt: AT }),
  );
});

describe("the back office says UTC as the client's pages do", () => {
  it("the client's History, the reference point", async () => {
    const history = await (await getPage("/transactions", client.cookie)).text();
    expect(rowCells(history, reference)?.[1]).toBe(SHOWN);
  });

  it("the client page's transactions and fee deposits (/user/{id})", async () => {
    await insertTransaction(client.id, {
      transactionType: "fee_deposit",
      status: "approved",
      amountCents: 700,
      createdAt: AT + 60_000,
    });
    const page = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
    // Reference, Type, Amount, Pair/Stock, Date.
    expect(rowCells(page, reference)?.[4]).toBe(SHOWN);
    const feeDeposits = /Fee Deposits<\/h2>[\s\S]*?<\/article>/.exec(page)?.[0] ?? "";
    expect(textOf(feeDeposits)).toContain("Mar 5, 2026, 2:08 PM UTC");
  });

  it("all transactions (/admin/transactions)", async () => {
    const page = await (
      await getPage(`/admin/transactions?client=${encodeURIComponent(client.email)}`, admin.cookie)
    ).text();
    // Reference, Client, Type, Pair/Stock, Amount, Date.
    expect(rowCells(page, reference)?.[5]).toBe(SHOWN);
  });

  it("the desk's proposals (/admin)", async () => {
    const proposed = await postForm(
      `/user/${client.id}`,
      { intent: "entry", type: "deposit", amount: "20000", reason: "Wire", idempotencyKey: crypto.randomUUID() },
      { cookie: admin.cookie },
    );
    expect(proposed.status).toBe(200);
    const desk = textOf(await (await getPage("/admin", admin.cookie)).text());
    expect(desk).toMatch(new RegExp(`Proposed by ${admin.email} on ${MOMENT.source} · expires ${MOMENT.source}`));
  });

  it("the audit log and the mail queue", async () => {
    await env.DB.prepare(
      "INSERT INTO audit_log (actor_id, action, target, detail, created_at) VALUES (?, 'client.suspend', ?, ?, ?)",
    )
      .bind(admin.id, `user:${client.id}`, JSON.stringify({ before: "active", after: "suspended" }), AT)
      .run();
    const audit = await (await getPage(`/admin/audit?client=${client.id}`, admin.cookie)).text();
    expect(rowCells(audit, "Active → Suspended")?.[0]).toBe(SHOWN);

    await env.DB.prepare(
      `INSERT INTO email_outbox (to_address, template, payload, status, attempts, next_attempt_at, created_at)
       VALUES ('utc.times@example.com', 'welcome', '{}', 'pending', 1, ?, ?)`,
    )
      .bind(AT + 3_600_000, AT)
      .run();
    const mail = await (await getPage("/admin/mail", admin.cookie)).text();
    const cells = rowCells(mail, "utc.times@example.com");
    expect(cells?.[0]).toBe(SHOWN);
    expect(cells).toContain("Mar 5, 2026, 3:07 PM UTC");
  });
});
