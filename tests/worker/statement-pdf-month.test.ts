import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { formatCents, formatDateTimeUtc, formatLongDate, formatSignedCents } from "~/lib/format";
import { statusLabel, typeLabel } from "~/lib/labels";
import { transactionReference } from "~/lib/reference";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { STATEMENT_REFUSALS } from "~/lib/statement-month";
import { schema } from "~/server/db.server";
import { clientStatement, parseStatementMonth, type StatementPeriod } from "~/server/ledger/statements.server";
import { storedPdfPrefix } from "~/server/statement-pdf/stored-pdf.server";
import {
  appEnv,
  createUser,
  db,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
  signedInAdmin,
} from "../support/fixtures";
import { lineStarting, pdfPages } from "../support/pdf-text";
import { statuses } from "../support/places";
import { markVerified } from "../support/verification-state";

const DAY = 86_400_000;
const MONTH = "2025-03";
const period = parseStatementMonth(MONTH) as StatementPeriod;
/** The ASCII minus the PDF's fonts write for the page's typographic one. */
const printed = (text: string) => text.replace(/\u2212/g, "-").replace(/\p{Zs}/gu, " ");

/** A client with `movements` approved rows in March 2025 (after one in February), and two requests that moved nothing. */
async function clientWithMarch(movements: number, firstName = "Casey") {
  const admin = await createUser({ role: "admin" });
  const client = await createUser({ firstName });
  await markVerified(client.id);
  const approved = (values: Parameters<typeof insertTransaction>[1]) =>
    insertTransaction(client.id, { status: "approved", decidedBy: admin.id, ...values });
  await approved({ amountCents: 500_000, createdAt: Date.UTC(2025, 1, 10), decidedAt: Date.UTC(2025, 1, 10) });
  for (let i = 0; i < movements; i++) {
    const at = period.start + DAY + i * 60_000;
    if (i % 3 === 2)
      await approved({
        transactionType: "loss",
        tradingPair: "EUR/USD",
        amountCents: 1_234 + i,
        createdAt: at,
        decidedAt: at,
      });
    else if (i % 3 === 1)
      await approved({
        transactionType: "stock_deposit",
        stock: "AAPL",
        amountCents: 20_000 + i,
        createdAt: at,
        decidedAt: at,
      });
    else
      await approved({
        transactionType: "profit",
        tradingPair: "BTC/USD",
        amountCents: 5_050 + i,
        createdAt: at,
        decidedAt: at,
      });
  }
  await insertTransaction(client.id, {
    transactionType: "withdraw",
    amountCents: 7_500,
    createdAt: period.start + 2 * DAY,
  });
  const rejected = await insertTransaction(client.id, { amountCents: 9_900, createdAt: period.start + 3 * DAY });
  await env.DB.prepare("UPDATE transactions SET status = 'rejected', decided_by = ?, decided_at = ? WHERE id = ?")
    .bind(admin.id, period.start + 4 * DAY, rejected)
    .run();
  return { ...client, admin, cookie: await sessionCookieFor(client.id) };
}

async function storedKeys(userId: string) {
  return (await env.STATEMENTS.list({ prefix: `statements/${userId}/` })).objects.map((object) => object.key);
}

async function download(path: string, cookie: string) {
  const response = await getPage(path, cookie);
  return { response, bytes: new Uint8Array(await response.arrayBuffer()) };
}

describe("a month's statement as a PDF", () => {
  it("prints the page's figures: firm, client, period, balances, every movement, totals, requests, page numbers", async () => {
    const client = await clientWithMarch(140);
    const { response, bytes } = await download(`/statements/${MONTH}.pdf`, client.cookie);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/pdf");
    expect(response.headers.get("Content-Disposition")).toBe(`attachment; filename="statement-${MONTH}.pdf"`);
    expect(response.headers.get("Cache-Control")).toMatch(/no-store/);
    expect(response.headers.get("Cache-Control")).toMatch(/private/);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe("%PDF-");

    const statement = await clientStatement(db, client, period);
    const pages = await pdfPages(bytes);
    const lines = pages.flat();
    expect(pages.length).toBeGreaterThan(1);
    pages.forEach((page, index) => {
      const footer = page.at(-1) ?? [];
      expect(footer[0]).toMatch(new RegExp(`^${appEnv.BRAND_NAME} - Generated `));
      expect(footer.at(-1)).toBe(`Page ${index + 1} of ${pages.length}`);
    });

    expect(lines[0]).toEqual([appEnv.BRAND_NAME]);
    expect(lines[1]).toEqual(["Statement for March 2025"]);
    expect(lines[2]).toEqual([`Period: ${formatLongDate(period.start)} – ${formatLongDate(period.end - 1)} (UTC)`]);
    expect(lineStarting(lines, "Account holder")).toEqual(["Account holder", "Casey Tester"]);
    expect(lineStarting(lines, "E-mail")).toEqual(["E-mail", client.email]);
    expect(lineStarting(lines, "Account ID")).toEqual(["Account ID", client.id]);
    expect(lineStarting(lines, "Opening balance")).toEqual(["Opening balance", formatCents(statement.openingCents)]);
    expect(statement.openingCents).toBe(500_000);
    expect(lineStarting(lines, "Money moved")).toEqual([
      "Money moved",
      printed(formatSignedCents(statement.closingCents - statement.openingCents)),
    ]);

    // Every movement, in the page's order, with the page's amount and running balance.
    const movementLines = lines.filter((line) =>
      statement.movements.some((m) => line[1] === transactionReference(m.id)),
    );
    expect(movementLines).toEqual(
      statement.movements.map((m) => [
        printed(formatDateTimeUtc(m.movedAt)),
        transactionReference(m.id),
        typeLabel(m.transactionType),
        m.tradingPair ?? m.stock ?? "",
        printed(formatSignedCents(m.signedCents)),
        formatCents(m.balanceCents),
      ]),
    );
    expect(statement.movements).toHaveLength(140);

    // Totals by type, then the closing balance, as the page's table.
    for (const total of statement.totals) {
      expect(lineStarting(lines, typeLabel(total.type))).toEqual([
        typeLabel(total.type),
        String(total.count),
        printed(formatSignedCents(total.signedCents)),
      ]);
    }
    expect(lines.filter((line) => line[0] === "Closing balance")).toEqual([
      ["Closing balance", formatCents(statement.closingCents)],
      ["Closing balance", formatCents(statement.closingCents)],
    ]);

    // The requests that moved nothing, with their status.
    expect(statement.requests).toHaveLength(2);
    for (const request of statement.requests) {
      expect(lines.find((line) => line[1] === transactionReference(request.id))).toEqual([
        printed(formatDateTimeUtc(request.createdAt)),
        transactionReference(request.id),
        typeLabel(request.transactionType),
        formatCents(request.amountCents),
        statusLabel(request.status, "client"),
      ]);
    }
  });

  it("says so when a month moved nothing, on one page", async () => {
    const client = await createUser();
    await insertTransaction(client.id, { amountCents: 1_000, createdAt: period.start + DAY });
    const cookie = await sessionCookieFor(client.id);
    const { response, bytes } = await download(`/statements/${MONTH}.pdf`, cookie);
    expect(response.status).toBe(200);
    const pages = await pdfPages(bytes);
    expect(pages).toHaveLength(1);
    const lines = pages.flat();
    expect(lines).toContainEqual(["No money moved on your account this month."]);
    expect(lineStarting(lines, "Closing balance")).toEqual(["Closing balance", "$0.00"]);
    expect(pages[0]?.at(-1)?.at(-1)).toBe("Page 1 of 1");
  });

  it("keeps a closed month's PDF, serves the kept copy again, and builds a new one when the ledger changes", async () => {
    const client = await clientWithMarch(4);
    const first = await download(`/statements/${MONTH}.pdf`, client.cookie);
    const keys = await storedKeys(client.id);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(new RegExp(`^${storedPdfPrefix(client.id, MONTH)}[0-9a-f]{64}\\.pdf$`));
    const kept = await env.STATEMENTS.get(keys[0] ?? "");
    expect(new Uint8Array((await kept?.arrayBuffer()) ?? new ArrayBuffer(0))).toEqual(first.bytes);

    // The second download is the kept copy (marked here so that it can be told apart from a new build).
    const marked = new TextEncoder().encode("%PDF-1.7 the kept copy");
    await env.STATEMENTS.put(keys[0] ?? "", marked);
    const second = await download(`/statements/${MONTH}.pdf`, client.cookie);
    expect(second.bytes).toEqual(marked);
    expect(second.response.headers.get("Content-Length")).toBe(String(marked.length));

    // A request of March decided now leaves March's requests: a new PDF, and the old copy is gone.
    const pending = await env.DB.prepare(
      "SELECT id FROM transactions WHERE user_id = ? AND status = 'pending' AND transaction_type = 'withdraw'",
    )
      .bind(client.id)
      .first<{ id: number }>();
    await env.DB.prepare("UPDATE transactions SET status = 'rejected', decided_by = ?, decided_at = ? WHERE id = ?")
      .bind(client.admin.id, Date.now(), pending?.id)
      .run();
    const third = await download(`/statements/${MONTH}.pdf`, client.cookie);
    expect(third.bytes.slice(0, 5)).toEqual(first.bytes.slice(0, 5));
    const lines = (await pdfPages(third.bytes)).flat();
    expect(lines.find((line) => line[1] === transactionReference(pending?.id ?? 0))?.at(-1)).toBe(
      statusLabel("rejected", "client"),
    );
    const replaced = await storedKeys(client.id);
    expect(replaced).toHaveLength(1);
    expect(replaced[0]).not.toBe(keys[0]);

    // A new name is printed too.
    await env.DB.prepare("UPDATE profiles SET first_name = 'Robin' WHERE user_id = ?").bind(client.id).run();
    const renamed = (await pdfPages((await download(`/statements/${MONTH}.pdf`, client.cookie)).bytes)).flat();
    expect(lineStarting(renamed, "Account holder")).toEqual(["Account holder", "Robin Tester"]);
  });

  it("loses its kept copies when the client's data is deleted", async () => {
    const client = await clientWithMarch(2);
    await download(`/statements/${MONTH}.pdf`, client.cookie);
    expect(await storedKeys(client.id)).toHaveLength(1);
    const admin = await signedInAdmin();
    const response = await postForm("/admin", { intent: "delete", userId: client.id }, { cookie: admin.cookie });
    expect(statuses(await response.text())).toContain(ADMIN_MESSAGES.deleted);
    await vi.waitFor(async () => expect(await storedKeys(client.id)).toEqual([]));
  });

  it("builds the current month's PDF on each download and keeps none", async () => {
    const client = await createUser();
    await insertTransaction(client.id, { amountCents: 1_000 });
    const cookie = await sessionCookieFor(client.id);
    const month = new Date().toISOString().slice(0, 7);
    const { response, bytes } = await download(`/statements/${month}.pdf`, cookie);
    expect(response.status).toBe(200);
    const lines = (await pdfPages(bytes)).flat();
    expect(lines[2]?.[0]).toContain(`– ${formatLongDate(Date.now())} (UTC)`);
    expect(await storedKeys(client.id)).toEqual([]);
  });

  it("is the signed-in client's own: another client gets their own month, an admin and a visitor get none", async () => {
    const owner = await clientWithMarch(3, "Owner");
    const other = await createUser({ firstName: "Other" });
    const otherCookie = await sessionCookieFor(other.id);
    const { response, bytes } = await download(`/statements/${MONTH}.pdf`, otherCookie);
    expect(response.status).toBe(200);
    const text = (await pdfPages(bytes)).flat().flat().join("\n");
    expect(text).toContain("Other Tester");
    expect(text).not.toContain("Owner Tester");
    expect(text).not.toContain(owner.id);
    expect(text).toContain("No money moved on your account this month.");
    expect(await storedKeys(owner.id)).toEqual([]);

    const admin = await createUser({ role: "admin" });
    const asAdmin = await getPage(`/statements/${MONTH}.pdf`, await sessionCookieFor(admin.id));
    expect(asAdmin.status).toBe(302);
    expect(asAdmin.headers.get("Location")).toBe("/admin");
    expect(await storedKeys(admin.id)).toEqual([]);

    const visitor = await getPage(`/statements/${MONTH}.pdf`);
    expect(visitor.status).toBe(302);
    expect(visitor.headers.get("Location")).toBe(`/login?redirectTo=${encodeURIComponent(`/statements/${MONTH}.pdf`)}`);
    expect(await storedKeys(owner.id)).toEqual([]);
  });

  it("answers a malformed or future month with the statement's 404 and builds nothing", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    for (const path of ["/statements/2025-13.pdf", "/statements/october.pdf", "/statements/2999-01.pdf"]) {
      const response = await getPage(path, cookie);
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).not.toBe("application/pdf");
    }
    expect(await storedKeys(client.id)).toEqual([]);
  });

  it("has no month before statements begin: a year below 100 is not read as 19xx, and nothing is kept", async () => {
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    for (const path of ["/statements/0099-12.pdf", "/statements/0000-01.pdf", "/statements/1999-12.pdf"]) {
      const response = await getPage(path, cookie);
      expect(response.status, path).toBe(404);
      expect(await response.text()).toContain(STATEMENT_REFUSALS.early);
    }
    expect((await getPage("/statements/0099-12", cookie)).status).toBe(404);
    expect(await storedKeys(client.id)).toEqual([]);
  });

  it("cuts a value too long for its place with an ellipsis instead of running it off the page", async () => {
    const client = await createUser();
    await db
      .update(schema.profiles)
      .set({ firstName: "W".repeat(100), lastName: "W".repeat(100) })
      .where(eq(schema.profiles.userId, client.id));
    const response = await getPage(`/statements/${MONTH}.pdf`, await sessionCookieFor(client.id));
    expect(response.status).toBe(200);
    const [first = []] = await pdfPages(await response.arrayBuffer());
    const holder = lineStarting(first, "Account holder")?.[1] ?? "";
    expect(holder).toMatch(/^W+\.\.\.$/);
    // Helvetica-Bold's W is 944/1000 of the size: what is printed fits between its start and the margin.
    expect(holder.length - 3).toBeLessThan(60);
  });
});
