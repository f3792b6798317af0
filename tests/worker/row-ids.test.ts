import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { BackOfficeRole } from "~/lib/permissions";
import { parseRowId } from "~/lib/row-id";
import { proposeLedgerEntry } from "~/server/admin/proposals.server";
import {
  countRows,
  createUser,
  db,
  fundedClient,
  insertTransaction,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";

/**
 * Other spellings of the number `id` that JavaScript's Number() reads as the same row: a back-office form must
 * name a row by its id as the page wrote it, or name nothing.
 */
const aliasesOf = (id: number) => [
  `0x${id.toString(16)}`,
  `${id}.0`,
  ` ${id} `,
  `${id}e0`,
  `+${id}`,
  `0${id}`,
  `${id}\n`,
];

async function adminWith(roles: BackOfficeRole[]) {
  const admin = await createUser({ role: "admin", roles });
  return { ...admin, cookie: await sessionCookieFor(admin.id) };
}

const statusOf = async (table: string, id: number) =>
  (await env.DB.prepare(`SELECT status FROM ${table} WHERE id = ?`).bind(id).first<{ status: string }>())?.status;

describe("parseRowId, the one reader of a row id in a form or a URL", () => {
  it("reads every positive safe integer written in digits as itself", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (n) => parseRowId(String(n)) === n));
  });

  it("reads nothing else: whatever it accepts is written exactly as the number it gives", () => {
    const spellings = fc.oneof(
      fc.string(),
      fc.integer({ min: 1, max: 10_000 }).chain((n) => fc.constantFrom(...aliasesOf(n))),
    );
    fc.assert(
      fc.property(spellings, (text) => {
        const id = parseRowId(text);
        return id === null || String(id) === text;
      }),
    );
    for (const text of ["0", "-1", "", "1.5", "9007199254740993", "١٢", null, undefined]) {
      expect(parseRowId(text), String(text)).toBeNull();
    }
  });
});

describe("a back-office form that names a row by another spelling of its id changes nothing", () => {
  it("an alert's decision", async () => {
    const officer = await adminWith(["compliance"]);
    const client = await createUser();
    const tx = await insertTransaction(client.id, { amountCents: 1_000_000, createdBy: client.id });
    const alert = await env.DB.prepare(
      `INSERT INTO monitoring_alerts (user_id, rule, trigger_transaction_id, detail, created_at)
       VALUES (?, 'large_transaction', ?, '{}', ?) RETURNING id`,
    )
      .bind(client.id, tx, Date.now())
      .first<{ id: number }>();
    const id = alert?.id ?? 0;
    for (const alias of aliasesOf(id)) {
      const response = await postForm(
        "/admin/alerts",
        { intent: "dismiss", alertId: alias, reason: "Known payroll" },
        { cookie: officer.cookie },
      );
      expect(response.status, JSON.stringify(alias)).toBe(404);
    }
    expect(await statusOf("monitoring_alerts", id)).toBe("open");
    expect(await countRows("audit_log", "action = 'alert.dismiss'")).toBe(0);
  });

  it("a request's approval or rejection on the client's page", async () => {
    const admin = await adminWith(["owner"]);
    const client = await createUser();
    const id = await insertTransaction(client.id, { amountCents: 12_345 });
    for (const intent of ["approve", "reject"]) {
      for (const alias of aliasesOf(id)) {
        const response = await postForm(
          `/user/${client.id}`,
          { intent, transactionId: alias },
          { cookie: admin.cookie },
        );
        expect(response.status, `${intent} ${JSON.stringify(alias)}`).not.toBe(200);
      }
    }
    expect(await statusOf("transactions", id)).toBe("pending");
  });

  it("a proposal's approval, on the desk and on the client's page", async () => {
    const maker = await adminWith(["owner"]);
    const checker = await adminWith(["owner"]);
    const client = await fundedClient();
    const proposed = await proposeLedgerEntry(db, { id: maker.id, email: maker.email }, client.id, {
      type: "deposit",
      amountCents: 2_000_000,
      idempotencyKey: crypto.randomUUID(),
      reason: "Wire received",
    });
    if (!proposed.ok) throw new Error(proposed.error);
    for (const path of ["/admin", `/user/${client.id}`]) {
      for (const alias of aliasesOf(proposed.proposalId)) {
        await postForm(path, { intent: "approveProposal", proposalId: alias }, { cookie: checker.cookie });
      }
    }
    expect(await statusOf("proposals", proposed.proposalId)).toBe("pending");
  });

  it("a note's correction", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser();
    const note = await env.DB.prepare(
      "INSERT INTO client_notes (user_id, author_id, body) VALUES (?, ?, 'Met on Monday') RETURNING id",
    )
      .bind(client.id, support.id)
      .first<{ id: number }>();
    for (const alias of aliasesOf(note?.id ?? 0)) {
      const response = await postForm(
        `/user/${client.id}`,
        { intent: "note", body: "It was Tuesday", flagsShown: "", correctsId: alias },
        { cookie: support.cookie },
      );
      expect(response.status, JSON.stringify(alias)).toBe(400);
    }
    expect(await countRows("client_notes", "user_id = ?", client.id)).toBe(1);
  });
});
