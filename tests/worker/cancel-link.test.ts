import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { SQLiteAsyncDialect } from "drizzle-orm/sqlite-core";
import { beforeAll, describe, expect, it } from "vitest";
import { CANCEL_MESSAGES } from "~/lib/schemas/requests";
import { decideTransaction } from "~/server/admin/decisions.server";
import { signCancelToken } from "~/server/ledger/cancel-link.server";
import { withdrawableCents } from "~/server/ledger/figures.server";
import { neverPaidTo } from "~/server/ledger/payout-address.server";
import { renderStoredEmail } from "~/server/mail/templates.server";
import worker from "../../workers/app";
import {
  appEnv,
  countRows,
  db,
  ensureDepositWallets,
  fundedClient as fundedClientOf,
  getPage,
  ORIGIN,
  postForm,
  requestWithdrawalAs,
  signedInAdmin,
} from "../support/fixtures";
import { alerts, elementsHolding, heading, termValue } from "../support/places";

let admin: { id: string; email: string; cookie: string };

beforeAll(async () => {
  await ensureDepositWallets();
  admin = await signedInAdmin();
});

const adminActor = () => ({ id: admin.id, email: admin.email });
const newAddress = () => `0x${crypto.randomUUID().replaceAll("-", "").padEnd(40, "a").slice(0, 40)}`;

const fundedClient = () => fundedClientOf(100_000, "Nia");
const withdraw = (client: { id: string; cookie: string }, address: string, amount = "25.00") =>
  requestWithdrawalAs(client, { amount, address });

async function newAddressMails(email: string) {
  const { results } = await env.DB.prepare(
    "SELECT payload FROM email_outbox WHERE to_address = ? AND template = 'withdrawal_new_address' ORDER BY id",
  )
    .bind(email)
    .all<{ payload: string }>();
  return results.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
}

/** The cancel link as the client's mail shows it. */
function linkIn(payload: Record<string, unknown>): URL {
  const text = renderStoredEmail("withdrawal_new_address", payload, appEnv).text;
  const match = /Cancel this withdrawal: (\S+)/.exec(text);
  if (!match?.[1]) throw new Error(`no cancel link in: ${text}`);
  return new URL(match[1]);
}

const statusOf = async (id: number) =>
  (await env.DB.prepare("SELECT status FROM transactions WHERE id = ?").bind(id).first<{ status: string }>())?.status;

const postToken = (token: string) => postForm("/cancel-request", { token });

describe("a withdrawal to an address this client was never paid to", () => {
  it("mails the client, naming the address, amount and currency, once per request", async () => {
    const client = await fundedClient();
    const address = newAddress();
    const id = await withdraw(client, address, "25.00");
    const mails = await newAddressMails(client.email);
    expect(mails).toEqual([
      expect.objectContaining({ amount: 25, currency: "ETH", address, transactionId: id, clientId: client.id }),
    ]);
    const mail = renderStoredEmail("withdrawal_new_address", mails[0], appEnv);
    expect(mail.text).toContain(address);
    expect(mail.text).toContain("$25.00");
    // The outbox holds the ids, never the token itself.
    expect(JSON.stringify(mails[0])).not.toContain(signCancelToken(appEnv.SESSION_SECRET, id, client.id));
  });

  it("is not mailed, nor flagged, once the client was paid to that address; another client's payouts do not count", async () => {
    const client = await fundedClient();
    const other = await fundedClient();
    const familiar = newAddress();
    const othersAddress = newAddress();
    // The client was paid to `familiar` before; another client was paid to `othersAddress`.
    const first = await withdraw(client, familiar);
    expect((await decideTransaction(db, adminActor(), first, "approved", { limits: appEnv })).ok).toBe(true);
    const othersPaid = await withdraw(other, othersAddress);
    expect((await decideTransaction(db, adminActor(), othersPaid, "approved", { limits: appEnv })).ok).toBe(true);
    const mailsBefore = (await newAddressMails(client.email)).length;

    const again = await withdraw(client, familiar);
    const elsewhere = await withdraw(client, othersAddress);
    const mails = await newAddressMails(client.email);
    expect(mails.slice(mailsBefore).map((m) => m.transactionId)).toEqual([elsewhere]);

    // The admin's table: 'New address' on the request to othersAddress, not on the repeat to `familiar` (the
    // first payout there was new when it was made, so it keeps its flag).
    const html = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
    const rowHtml = (id: number) => {
      const start = html.indexOf(`value="${id}"`);
      return html.slice(html.lastIndexOf("<tr", start), html.indexOf("</tr>", start));
    };
    const rowsPayingTo = (address: string) => html.split("<tr").filter((row) => row.includes(`>${address}<`));
    expect(rowHtml(elsewhere)).toContain("New address");
    expect(rowHtml(again)).not.toContain("New address");
    expect(rowsPayingTo(familiar).filter((row) => row.includes("New address"))).toHaveLength(1);
  });

  it("shows 'New address' on the desk beside the waiting payout", async () => {
    const client = await fundedClient();
    const address = newAddress();
    await withdraw(client, address);
    const desk = await (await getPage("/admin", admin.cookie)).text();
    const lines = elementsHolding(desk, "li", `data-testid="pending-payout-address">${address}<`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain("New address");
  });
});

describe("the cancel link", () => {
  it("shows what it cancels (signed out, never cached, no referrer), then cancels once", async () => {
    const client = await fundedClient();
    const address = newAddress();
    const id = await withdraw(client, address, "30.00");
    const [mail] = await newAddressMails(client.email);
    if (!mail) throw new Error("no mail");
    const link = linkIn(mail);
    expect(link.pathname).toBe("/cancel-request");

    const page = await getPage(`${link.pathname}${link.search}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("Cache-Control")).toBe("private, no-store");
    expect(page.headers.get("Referrer-Policy")).toBe("no-referrer");
    const html = await page.text();
    expect(heading(html)).toBe("Cancel this request?");
    expect(termValue(html, "Pay to address")).toBe(address);
    expect(termValue(html, "Amount")).toBe("$30.00");
    expect(termValue(html, "Type")).toBe("Withdrawal");
    expect(await statusOf(id)).toBe("pending");
    expect(await withdrawableCents(db, client.id)).toBe(97_000);

    const token = link.searchParams.get("token") ?? "";
    const used = await postToken(token);
    expect(used.status).toBe(200);
    const answer = await used.text();
    // The heading says what happened; the question is gone.
    expect(answer).toMatch(new RegExp(`<h1[^>]*>${CANCEL_MESSAGES.cancelled}</h1>`));
    expect(answer).not.toContain("Cancel this request?");
    expect(await statusOf(id)).toBe("cancelled");
    expect(await withdrawableCents(db, client.id)).toBe(100_000);
    expect(
      await countRows(
        "audit_log",
        "target = ? AND action = 'transaction.cancel' AND actor_id = ?",
        `transaction:${id}`,
        client.id,
      ),
    ).toBe(1);
    // Anyone holding the mail's link could have done it, signed out: the audit row says it came through the link.
    expect(
      await countRows(
        "audit_log",
        "target = ? AND action = 'transaction.cancel' AND json_extract(detail, '$.via') = 'link'",
        `transaction:${id}`,
      ),
    ).toBe(1);

    // A second use finds it cancelled and changes nothing.
    const second = await postToken(token);
    expect(second.status).toBe(410);
    expect(alerts(await second.text())).toContain(CANCEL_MESSAGES.alreadyCancelled);
    expect(await countRows("audit_log", "target = ?", `transaction:${id}`)).toBe(1);
    expect(alerts(await (await getPage(`${link.pathname}${link.search}`)).text())).toContain(
      CANCEL_MESSAGES.alreadyCancelled,
    );
  });

  it("is refused after an admin's decision", async () => {
    const client = await fundedClient();
    const id = await withdraw(client, newAddress());
    expect((await decideTransaction(db, adminActor(), id, "approved", { limits: appEnv })).ok).toBe(true);
    const token = signCancelToken(appEnv.SESSION_SECRET, id, client.id);
    const response = await postToken(token);
    expect(response.status).toBe(410);
    expect(alerts(await response.text())).toContain(CANCEL_MESSAGES.alreadyDecided);
    expect(await statusOf(id)).toBe("approved");
  });

  it("refuses forged and tampered tokens, and one for another row or another client, changing nothing", async () => {
    const client = await fundedClient();
    const intruder = await fundedClient();
    const id = await withdraw(client, newAddress());
    const sibling = await withdraw(client, newAddress());
    const theirs = await withdraw(intruder, newAddress());
    const good = signCancelToken(appEnv.SESSION_SECRET, id, client.id);
    const signature = good.split(".")[2] ?? "";
    const flipped = `${signature.slice(0, -1)}${signature.endsWith("A") ? "B" : "A"}`;
    const audits = await countRows("audit_log");

    const refused = [
      "",
      "garbage",
      `${id}.${client.id}.${flipped}`,
      // Another key: what anyone without the server's secret could make.
      signCancelToken("not-the-secret-but-at-least-32-characters-long", id, client.id),
      // This row's signature on another row, and on this row under another owner.
      `${sibling}.${client.id}.${signature}`,
      `${id}.${intruder.id}.${signature}`,
      // A genuine token for a row that is not the named owner's.
      signCancelToken(appEnv.SESSION_SECRET, theirs, client.id),
      signCancelToken(appEnv.SESSION_SECRET, id, intruder.id),
    ];
    for (const token of refused) {
      const response = await postToken(token);
      expect(response.status).toBe(410);
      expect(alerts(await response.text())).toContain(CANCEL_MESSAGES.invalidLink);
      const page = await getPage(`/cancel-request?token=${encodeURIComponent(token)}`);
      expect(alerts(await page.text())).toContain(CANCEL_MESSAGES.invalidLink);
    }
    expect(await statusOf(id)).toBe("pending");
    expect(await statusOf(sibling)).toBe("pending");
    expect(await statusOf(theirs)).toBe("pending");
    expect(await countRows("audit_log")).toBe(audits);
  });

  it("loads no third-party chat on its page: the chat's script would read the token in the address", async () => {
    const client = await fundedClient();
    await withdraw(client, newAddress());
    const [mail] = await newAddressMails(client.email);
    if (!mail) throw new Error("no mail");
    const link = linkIn(mail);
    const chat = "chatproperty/chatwidget";
    const withChat = { ...env, LIVE_CHAT_TAWK_ID: chat };
    const pageWithChat = async (path: string) => {
      const ctx = createExecutionContext();
      const response = await worker.fetch(new Request(`${ORIGIN}${path}`), withChat, ctx);
      await waitOnExecutionContext(ctx);
      return response.text();
    };
    // The chat is configured, and other pages load it. The chat is loaded after hydration from the page's data, so
    // its id anywhere in a response is what would load it: these checks are on the whole response.
    expect(await pageWithChat("/")).toContain(chat);
    const html = await pageWithChat(`${link.pathname}${link.search}`);
    expect(heading(html)).toBe("Cancel this request?");
    expect(html).not.toContain(chat);
    // The password reset link's page carries a token the same way.
    expect(await pageWithChat("/reset-password?token=not-a-real-token")).not.toContain(chat);
  });
});

describe("the 'New address' check", () => {
  it("is one look-up in the payouts index, however many payouts the client has had", async () => {
    const { sql: statement, params } = new SQLiteAsyncDialect().sqlToQuery(
      sql`SELECT ${neverPaidTo("00000000-0000-4000-8000-000000000000", "bc1qexample")}`,
    );
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement}`)
      .bind(...params)
      .all<{ detail: string }>();
    const plan = results.map((row) => row.detail).join("\n");
    expect(plan).toContain("USING COVERING INDEX transactions_user_payouts_idx");
    expect(plan).not.toMatch(/SCAN paid|transactions_user_status_recent_idx/);
  });
});
