import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { sql } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { positionSerial } from "~/lib/money/orders";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { MONEY_MESSAGES } from "~/lib/schemas/money";
import { DESK_CLOSE_MESSAGES } from "~/lib/schemas/orders";
import { STEP_UP_FIELD } from "~/lib/step-up";
import worker from "../../workers/app";
import {
  createUser,
  db,
  dbRefusal,
  formRequest,
  fundedClient,
  getPage,
  sessionCookieFor,
  totpCode,
} from "../support/fixtures";
import { buyAt, sellAt } from "../support/orders";
import { buttonNames } from "../support/places";
import { quotesControl } from "../support/quotes";

/**
 * The desk closes a client's position from their page, at the bid of the server's quote: at once under the
 * four-eyes threshold, as a proposal from it, which a second admin's approval closes at the bid of its own moment.
 * Through the whole Worker, priced by a world of the run's quotes simulator.
 */
const quotes = quotesControl(inject("chainSimulatorUrl"), `desk-close-${crypto.randomUUID().slice(0, 8)}`);
const bindings = { ...env, ...quotes.vars } as typeof env;

type Admin = { id: string; email: string; cookie: string };
let operator: Admin;
let otherOperator: Admin;
let approver: Admin;
let support: Admin;

async function admin(roles: Array<"operator" | "approver" | "support">): Promise<Admin> {
  const created = await createUser({ role: "admin", roles });
  return { ...created, cookie: await sessionCookieFor(created.id) };
}

beforeAll(async () => {
  operator = await admin(["operator"]);
  otherOperator = await admin(["operator"]);
  approver = await admin(["approver"]);
  support = await admin(["support"]);
});

const text = async (response: Response) => (await response.text()).replaceAll("<!-- -->", "");

async function post(who: Admin, clientId: string, fields: Record<string, string>) {
  const ctx = createExecutionContext();
  const response = await worker.fetch(formRequest(`/user/${clientId}`, fields, { cookie: who.cookie }), bindings, ctx);
  await waitOnExecutionContext(ctx);
  return text(response);
}

const close = (who: Admin, clientId: string, positionId: number, fields: Record<string, string> = {}) =>
  post(who, clientId, {
    intent: "closePosition",
    positionId: String(positionId),
    idempotencyKey: crypto.randomUUID(),
    ...fields,
  });

const approve = (who: Admin, clientId: string, proposalId: number) =>
  post(who, clientId, { intent: "approveProposal", proposalId: String(proposalId) });

/** A funded client holding `sharesE4` AAPL bought at $190.02 (the cost rounded up to the cent). */
async function holder(sharesE4: number) {
  const client = await fundedClient(5_000_000);
  const position = await buyAt(client, "AAPL", sharesE4, 190.02, Date.now() - 60_000);
  return { client, position };
}

const positionRow = (id: number) =>
  db.get<{ status: string; open_shares_e4: number }>(
    sql`SELECT status, open_shares_e4 FROM positions WHERE id = ${id}`,
  );
const salesOf = (userId: string) =>
  db.all<{ id: number; sold_by: string; shares_e4: number; price_e4: number; proceeds_cents: number }>(
    sql`SELECT id, sold_by, shares_e4, price_e4, proceeds_cents FROM stock_sales WHERE user_id = ${userId}`,
  );
const resultEntries = (userId: string) =>
  db.all<{ id: number; transaction_type: string; amount_cents: number; trading_pair: string; created_by: string }>(
    sql`SELECT id, transaction_type, amount_cents, trading_pair, created_by FROM transactions
        WHERE user_id = ${userId} AND wallet_address = 'position-close'`,
  );
const closeProposal = (positionId: number) =>
  db.get<{ id: number; status: string; shares_e4: number; amount_cents: number; transaction_id: number | null }>(
    sql`SELECT id, status, shares_e4, amount_cents, transaction_id FROM proposals
        WHERE kind = 'position_close' AND position_id = ${positionId} ORDER BY id DESC`,
  );

describe("the desk's close of a position", () => {
  it("under the threshold sells the position at the bid at once: sale, result entry, notice and audit row", async () => {
    await quotes.set("AAPL", { bid: "200.00", ask: "200.04" });
    const { client, position } = await holder(35_000);
    const serial = positionSerial(position.id);
    const fields = { idempotencyKey: crypto.randomUUID(), reason: "Client asked by phone" };

    const page = await close(operator, client.id, position.id, fields);
    // 3.5 x $200.00 = $700.00 against a cost of $665.07.
    expect(page).toContain(`Closed ${serial}: sold 3.5 AAPL at $200.00 for $700.00, result +$34.93`);
    expect(await positionRow(position.id)).toMatchObject({ status: "closed", open_shares_e4: 0 });
    const [sale, ...more] = await salesOf(client.id);
    expect(more).toEqual([]);
    expect(sale).toMatchObject({
      sold_by: operator.id,
      shares_e4: 35_000,
      price_e4: 2_000_000,
      proceeds_cents: 70_000,
    });
    expect(await resultEntries(client.id)).toEqual([
      expect.objectContaining({ transaction_type: "profit", amount_cents: 3_493, trading_pair: "AAPL" }),
    ]);
    const notice = await db.get<{ payload: string }>(
      sql`SELECT payload FROM email_outbox WHERE template = 'order_filled' AND to_address = ${client.email}
          AND json_extract(payload, '$.order') = 'close'`,
    );
    expect(JSON.parse(notice?.payload ?? "{}")).toMatchObject({ symbol: "AAPL", cents: 70_000, resultCents: 3_493 });
    const audit = await db.get<{ actor_id: string; detail: string }>(
      sql`SELECT actor_id, detail FROM audit_log WHERE action = 'order.sell' AND target = ${`sale:${sale?.id}`}`,
    );
    expect(audit?.actor_id).toBe(operator.id);
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({ position: position.id, reason: "Client asked by phone" });

    // The same form again closes nothing more.
    await close(operator, client.id, position.id, fields);
    expect(await salesOf(client.id)).toHaveLength(1);
  });

  it("from the threshold waits for a second admin, who closes the same shares at the bid of the approval", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    // 60 AAPL: $11,401.20 bought, worth $11,400.00 at the bid, above the $10,000.00 threshold.
    const { client, position } = await holder(600_000);

    const withoutReason = await close(operator, client.id, position.id);
    expect(withoutReason).toContain(DESK_CLOSE_MESSAGES.reasonRequired);
    expect(await closeProposal(position.id)).toBeUndefined();

    expect(await close(operator, client.id, position.id, { reason: "Margin call" })).toContain(
      PROPOSAL_MESSAGES.awaiting,
    );
    const proposal = await closeProposal(position.id);
    expect(proposal).toMatchObject({ status: "pending", shares_e4: 600_000, amount_cents: 1_140_000 });
    expect(await positionRow(position.id)).toMatchObject({ status: "open" });
    const description = `Close position ${positionSerial(position.id)} (60 AAPL), worth $11,400.00 at the bid`;
    // Every other admin hears of it, the proposer not.
    const waitingMail = await db.all<{ to_address: string }>(
      sql`SELECT to_address FROM email_outbox WHERE template = 'proposal_waiting' AND instr(payload, ${description}) > 0`,
    );
    expect(waitingMail.map((mail) => mail.to_address)).toEqual(expect.arrayContaining([approver.email]));
    expect(waitingMail.map((mail) => mail.to_address)).not.toContain(operator.email);
    // The row says it waits instead of offering Close; a second close of it is refused while it waits.
    const pageText = await (await getPage(`/user/${client.id}`, operator.cookie)).text();
    expect(pageText).toContain("Close awaiting second approval");
    expect(buttonNames(pageText)).not.toContain(`Close position ${positionSerial(position.id)}`);
    expect(await close(otherOperator, client.id, position.id, { reason: "Again" })).toContain(
      DESK_CLOSE_MESSAGES.closeWaiting,
    );

    // The price moved by the time the approver decides: the close is at that moment's bid.
    await quotes.set("AAPL", { bid: "195.00", ask: "195.04" });
    expect(await approve(approver, client.id, proposal?.id ?? 0)).toContain(PROPOSAL_MESSAGES.approved);
    expect(await positionRow(position.id)).toMatchObject({ status: "closed" });
    const [sale] = await salesOf(client.id);
    // The proposer's sale (their roles allow it); the approver's audit row.
    expect(sale).toMatchObject({ sold_by: operator.id, price_e4: 1_950_000, proceeds_cents: 1_170_000 });
    const [entry] = await resultEntries(client.id);
    expect(entry).toMatchObject({ transaction_type: "profit", amount_cents: 1_170_000 - 1_140_120 });
    expect(await closeProposal(position.id)).toMatchObject({ status: "approved", transaction_id: entry?.id });
    expect(
      await db.get<{ actor_id: string }>(
        sql`SELECT actor_id FROM audit_log WHERE action = 'order.sell' AND target = ${`sale:${sale?.id}`}`,
      ),
    ).toEqual({ actor_id: approver.id });
  });

  it("is not approved when the position changed meanwhile or the price is stale, and nothing is written", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    const { client, position } = await holder(600_000);
    await close(operator, client.id, position.id, { reason: "Margin call" });
    const proposal = await closeProposal(position.id);
    // The client sells a share themselves while the close waits.
    await sellAt(client, "AAPL", 10_000, 190, Date.now());
    expect(await approve(approver, client.id, proposal?.id ?? 0)).toContain(DESK_CLOSE_MESSAGES.positionChanged);
    expect(await closeProposal(position.id)).toMatchObject({ status: "pending" });
    expect(await positionRow(position.id)).toMatchObject({ status: "open", open_shares_e4: 590_000 });

    const second = await holder(600_000);
    await close(operator, second.client.id, second.position.id, { reason: "Margin call" });
    await quotes.age("AAPL", 60);
    const stale = await approve(approver, second.client.id, (await closeProposal(second.position.id))?.id ?? 0);
    expect(stale).toContain(DESK_CLOSE_MESSAGES.priceUnavailable);
    expect(await salesOf(second.client.id)).toEqual([]);
    expect(await closeProposal(second.position.id)).toMatchObject({ status: "pending" });
  });

  it("refuses on a stale price, another client's position, or a position already closed", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    const { client, position } = await holder(10_000);
    const other = await holder(10_000);
    // Another client's position, named on this client's page, is not found and stays open.
    expect(await close(operator, client.id, other.position.id)).toContain(DESK_CLOSE_MESSAGES.positionGone);
    expect(await positionRow(other.position.id)).toMatchObject({ status: "open" });

    await quotes.age("AAPL", 60);
    expect(await close(operator, client.id, position.id)).toContain(DESK_CLOSE_MESSAGES.priceUnavailable);
    expect(await salesOf(client.id)).toEqual([]);

    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    await close(operator, client.id, position.id);
    expect(await close(operator, client.id, position.id)).toContain(DESK_CLOSE_MESSAGES.positionGone);
    expect(await salesOf(client.id)).toHaveLength(1);
  });

  it("by two admins at once sells the position once", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    for (let round = 0; round < 3; round++) {
      const { client, position } = await holder(20_000);
      const answers = await Promise.all([
        close(operator, client.id, position.id),
        close(otherOperator, client.id, position.id),
      ]);
      expect(await salesOf(client.id)).toHaveLength(1);
      expect(await resultEntries(client.id)).toHaveLength(1);
      expect(answers.filter((answer) => answer.includes(DESK_CLOSE_MESSAGES.positionGone))).toHaveLength(1);
    }
  });

  it("answers a form sent again with its close, and refuses its key for another position", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    const { client, position } = await holder(10_000);
    const other = await buyAt(client, "AAPL", 10_000, 190.02, Date.now() - 60_000);
    const key = { idempotencyKey: crypto.randomUUID() };
    const closed = `Closed ${positionSerial(position.id)}: sold 1 AAPL at $190.00 for $190.00`;
    expect(await close(operator, client.id, position.id, key)).toContain(closed);
    expect(await close(operator, client.id, position.id, key)).toContain(closed);
    expect(await close(otherOperator, client.id, other.id, key)).toContain(MONEY_MESSAGES.formExpired);
    expect(await positionRow(other.id)).toMatchObject({ status: "open" });
    expect(await salesOf(client.id)).toHaveLength(1);
    // The audit row names the position as the integer it is.
    const kind = await db.get<{ kind: string }>(
      sql`SELECT json_type(detail, '$.position') AS kind FROM audit_log
          WHERE action = 'order.sell' AND json_extract(detail, '$.client') = ${client.id}`,
    );
    expect(kind).toEqual({ kind: "integer" });
  });

  it("counts an admin's closes of one client in 24 hours together against the threshold", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    // Two positions of 30 AAPL, $5,700.00 each at the bid: together above the $10,000.00 threshold.
    const { client, position } = await holder(300_000);
    const second = await buyAt(client, "AAPL", 300_000, 190.02, Date.now() - 60_000);
    expect(await close(operator, client.id, position.id)).toContain(`Closed ${positionSerial(position.id)}`);
    expect(await close(operator, client.id, second.id)).toContain(DESK_CLOSE_MESSAGES.reasonRequired);
    expect(await close(operator, client.id, second.id, { reason: "Margin call" })).toContain(
      PROPOSAL_MESSAGES.awaiting,
    );
    expect(await positionRow(second.id)).toMatchObject({ status: "open" });
    // Another admin's close is counted for that admin alone.
    const third = await buyAt(client, "AAPL", 10_000, 190.02, Date.now() - 60_000);
    expect(await close(otherOperator, client.id, third.id)).toContain(`Closed ${positionSerial(third.id)}`);
  });

  it("sells one of two positions closed at once by one admin when together they pass the threshold", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    for (let round = 0; round < 3; round++) {
      const { client, position } = await holder(300_000);
      const second = await buyAt(client, "AAPL", 300_000, 190.02, Date.now() - 60_000);
      const answers = await Promise.all([
        close(operator, client.id, position.id),
        close(operator, client.id, second.id),
      ]);
      expect(await salesOf(client.id)).toHaveLength(1);
      // The other was refused: by the statement when both read no earlier close, else asked for a reason.
      const refused = answers.filter(
        (answer) =>
          answer.includes(DESK_CLOSE_MESSAGES.closedMeanwhile) || answer.includes(DESK_CLOSE_MESSAGES.reasonRequired),
      );
      expect(refused).toHaveLength(1);
    }
  });

  it("is not approved, without an error, once its proposer may no longer close", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    const { client, position } = await holder(600_000);
    const proposer = await admin(["operator"]);
    await close(proposer, client.id, position.id, { reason: "Margin call" });
    const proposal = await closeProposal(position.id);
    await env.DB.prepare("UPDATE admin_roles SET role = 'support' WHERE user_id = ?").bind(proposer.id).run();
    expect(await approve(approver, client.id, proposal?.id ?? 0)).toContain(DESK_CLOSE_MESSAGES.proposerMayNotClose);
    expect(await salesOf(client.id)).toEqual([]);
    expect(await closeProposal(position.id)).toMatchObject({ status: "pending" });
  });

  it("asks for no code before it knows the position", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    const { client, position } = await holder(10_000);
    const stale = await createUser({ role: "admin", roles: ["operator"] });
    const cookie = await sessionCookieFor(stale.id, Date.now(), { freshSecondFactor: false });
    const code = totpCode(stale.totpSecret as Uint8Array);
    const who = { ...stale, cookie };
    // A position that is not there is refused with the code unspent: it still opens the real close.
    expect(await close(who, client.id, 999_999, { [STEP_UP_FIELD]: code })).toContain(DESK_CLOSE_MESSAGES.positionGone);
    expect(await close(who, client.id, position.id, { [STEP_UP_FIELD]: code })).toContain(
      `Closed ${positionSerial(position.id)}`,
    );
  });

  it("is refused to a role without it, by the page and by the database", async () => {
    await quotes.set("AAPL", { bid: "190.00", ask: "190.04" });
    const { client, position } = await holder(10_000);
    const page = await (await getPage(`/user/${client.id}`, support.cookie)).text();
    expect(buttonNames(page)).not.toContain(`Close position ${positionSerial(position.id)}`);
    await close(support, client.id, position.id);
    expect(await salesOf(client.id)).toEqual([]);
    expect(
      await dbRefusal(
        env.DB.prepare(
          `INSERT INTO stock_sales (user_id, symbol, shares_e4, price_e4, quote_at, proceeds_cents, sold_by,
                                    idempotency_key, sold_at)
           VALUES (?, 'AAPL', 10000, 1900000, ?, 19000, ?, ?, ?)`,
        )
          .bind(client.id, Date.now(), approver.id, crypto.randomUUID(), Date.now())
          .run(),
      ),
    ).toContain("this admin's roles do not allow closing a client's position");
  });
});
