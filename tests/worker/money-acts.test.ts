import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { REASON_MAX_LENGTH, REASON_TOO_LONG } from "~/lib/schemas/reason";
import { decide } from "~/server/admin/decisions.server";
import { appEnv, countRows, createUser, db, insertTransaction } from "../support/fixtures";

const commandContext = () => ({ db, env: appEnv, bindings: env, ctx: createExecutionContext() });

describe("the decision command's answer", () => {
  it("puts a reason that is too long on the reason field with 400, and rejects nothing", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    const id = await insertTransaction(client.id, { transactionType: "deposit", status: "pending", amountCents: 500 });
    const context = commandContext();
    const answer = await decide(context, admin, {
      transactionId: id,
      decision: "rejected",
      userId: client.id,
      reason: "x".repeat(REASON_MAX_LENGTH + 1),
    });
    await waitOnExecutionContext(context.ctx);
    expect(answer).toEqual({ ok: false, error: REASON_TOO_LONG, status: 400, field: "reason" });
    expect(await countRows("transactions", "id = ? AND status = 'pending'", id)).toBe(1);
  });

  it("answers a decision that lost its row's race with 409, whatever its words", async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    const id = await insertTransaction(client.id, { transactionType: "deposit", status: "pending", amountCents: 500 });
    const context = commandContext();
    expect((await decide(context, admin, { transactionId: id, decision: "approved", userId: client.id })).ok).toBe(
      true,
    );
    const again = await decide(context, admin, { transactionId: id, decision: "rejected", userId: client.id });
    await waitOnExecutionContext(context.ctx);
    expect(again).toMatchObject({ ok: false, status: 409 });
  });
});
