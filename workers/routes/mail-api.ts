import { type Context, Hono } from "hono";
import { z } from "zod";
import { createDb } from "../../app/server/db.server";
import { readAppEnv } from "../../app/server/env.server";
import { deliverInBackground, enqueueEmail, type OutgoingEmail } from "../../app/server/mail/outbox.server";
import type { EmailTemplate } from "../../app/server/mail/templates.server";
import { requireMailApiToken } from "../middleware/bearer-token";
import type { AppBindings } from "../types";

/**
 * SPEC §7's mail endpoints. They never send directly: they validate, write an outbox row and answer
 * 202; delivery follows in the background and, on failure, by cron. The bearer token keeps them from
 * ever being an open relay.
 */
const recipient = z.email("must be a valid e-mail address");
const name = z.string("is required").trim().max(200, "must be at most 200 characters");
const amount = z.number("must be a number").positive("must be greater than 0").finite();
const walletType = z.string("is required").trim().min(1, "is required").max(50);
const walletAddress = z.string("is required").trim().min(1, "is required").max(200);

const welcomeBody = z.strictObject({ to: recipient, name });
const depositBody = z.strictObject({
  to: recipient,
  name,
  amount,
  wallet_type: walletType,
  wallet_address: walletAddress,
  stock: z.string("must be a string").trim().min(1, "must not be empty").max(20).optional(),
});
const withdrawalBody = z.strictObject({
  to: recipient,
  name,
  amount,
  wallet_type: walletType,
  wallet_address: walletAddress,
});

async function readJson(c: Context<AppBindings>): Promise<unknown> {
  try {
    return await c.req.json();
  } catch {
    return undefined;
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request body";
  if (issue.code === "unrecognized_keys") return `Unknown field: ${issue.keys.join(", ")}`;
  const field = issue.path.join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}

function mailEndpoint<S extends z.ZodType, T extends EmailTemplate>(
  schema: S,
  toEmail: (body: z.infer<S>) => OutgoingEmail<T>,
) {
  return async (c: Context<AppBindings>) => {
    const raw = await readJson(c);
    if (raw === undefined) return c.json({ error: "Request body must be JSON" }, 400);
    const parsed = schema.safeParse(raw);
    if (!parsed.success) return c.json({ error: firstIssue(parsed.error) }, 400);
    const env = readAppEnv(c.env);
    const db = createDb(c.env.DB);
    const row = await enqueueEmail(db, toEmail(parsed.data)).get();
    deliverInBackground(c.executionCtx as ExecutionContext, db, env, [row.id]);
    return c.json({ id: row.id, status: row.status }, 202);
  };
}

export const mailApi = new Hono<AppBindings>()
  .use("/send-*", requireMailApiToken())
  .post(
    "/send-welcome-email",
    mailEndpoint(welcomeBody, (body) => ({ to: body.to, template: "welcome", data: { name: body.name } })),
  )
  .post(
    "/send-deposit-email",
    mailEndpoint(depositBody, (body) => ({
      to: body.to,
      template: "deposit_request",
      data: {
        name: body.name || "User",
        amount: body.amount,
        walletType: body.wallet_type,
        walletAddress: body.wallet_address,
        stock: body.stock,
      },
    })),
  )
  .post(
    "/send-withdrawal-email",
    mailEndpoint(withdrawalBody, (body) => ({
      to: body.to,
      template: "withdrawal_request",
      data: {
        name: body.name || "User",
        amount: body.amount,
        walletType: body.wallet_type,
        walletAddress: body.wallet_address,
      },
    })),
  )
  .all("*", (c) => c.json({ error: "Not found" }, 404));
