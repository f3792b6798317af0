import { zValidator } from "@hono/zod-validator";
import { type Context, Hono } from "hono";
import { bearerAuth } from "hono/bearer-auth";
import { HTTPException } from "hono/http-exception";
import { z } from "zod";
import { constantTimeEqual } from "../../app/server/crypto.server";
import { deliverInBackground, enqueueEmail, type OutgoingEmail } from "../../app/server/mail/outbox.server";
import type { EmailTemplate } from "../../app/server/mail/templates.server";
import type { AppBindings } from "../types";

/**
 * The mail endpoints other services call (docs/product.md, "Mail"). They never send directly: they
 * validate, write an outbox row and answer 202; delivery follows in the background and, on failure, by
 * cron. The bearer token keeps them from ever being an open relay.
 */
const recipient = z.email("must be a valid e-mail address");
const name = z.string("is required").trim().max(200, "must be at most 200 characters");
const amount = z.number("must be a number").positive("must be greater than 0").finite();
const walletType = z.string("is required").trim().min(1, "is required").max(50);
const walletAddress = z.string("is required").trim().min(1, "is required").max(200);

/** What a deposit and a withdrawal notice both carry. */
const moneyFields = {
  to: recipient,
  name,
  amount,
  wallet_type: walletType,
  wallet_address: walletAddress,
};

const welcomeBody = z.strictObject({ to: recipient, name });
const depositBody = z.strictObject({
  ...moneyFields,
  stock: z.string("must be a string").trim().min(1, "must not be empty").max(20).optional(),
});
const withdrawalBody = z.strictObject(moneyFields);

/** A money notice's template data from its request body: a blank name greets "User". */
function moneyData(body: z.infer<typeof withdrawalBody>) {
  return {
    name: body.name || "User",
    amount: body.amount,
    walletType: body.wallet_type,
    walletAddress: body.wallet_address,
  };
}

/* Every refusal of the token (none, not a bearer token, a wrong one) gets the same answer. */
const unauthorized = {
  message: () => Response.json({ error: "Unauthorized" }, { status: 401 }),
  wwwAuthenticateHeader: 'Bearer realm="mail"',
};

/** `Authorization: Bearer <MAIL_API_TOKEN>`, compared in constant time. */
const requireMailApiToken = bearerAuth<AppBindings>({
  verifyToken: (token, c) => constantTimeEqual(token, c.var.env.MAIL_API_TOKEN),
  noAuthenticationHeader: unauthorized,
  invalidAuthenticationHeader: unauthorized,
  invalidToken: unauthorized,
});

const NOT_JSON = "Request body must be JSON";
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return "Invalid request body";
  if (issue.code === "unrecognized_keys") return `Unknown field: ${issue.keys.join(", ")}`;
  const field = issue.path.join(".");
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** The JSON body checked against `schema`; a refusal answers 400 `{ error }` naming the first bad field. */
const jsonBody = <S extends z.ZodType>(schema: S) =>
  zValidator("json", schema, (result, c) => {
    // The validator reads a body only when it is declared as JSON; anything else is not JSON to us either.
    const mediaType = c.req.header("Content-Type")?.split(";")[0]?.trim() ?? "";
    if (!JSON_MEDIA_TYPE.test(mediaType)) return c.json({ error: NOT_JSON }, 400);
    if (!result.success) return c.json({ error: firstIssue(result.error) }, 400);
  });

async function accept<T extends EmailTemplate>(c: Context<AppBindings>, email: OutgoingEmail<T>) {
  const { db, env } = c.var;
  const row = await enqueueEmail(db, email).get();
  deliverInBackground(c.executionCtx as ExecutionContext, db, env, [row.id]);
  return c.json({ id: row.id, status: row.status }, 202);
}

export const mailApi = new Hono<AppBindings>()
  .use("/send-*", requireMailApiToken)
  .post("/send-welcome-email", jsonBody(welcomeBody), (c) => {
    const body = c.req.valid("json");
    return accept(c, { to: body.to, template: "welcome", data: { name: body.name } });
  })
  .post("/send-deposit-email", jsonBody(depositBody), (c) => {
    const body = c.req.valid("json");
    return accept(c, { to: body.to, template: "deposit_request", data: { ...moneyData(body), stock: body.stock } });
  })
  .post("/send-withdrawal-email", jsonBody(withdrawalBody), (c) => {
    const body = c.req.valid("json");
    return accept(c, { to: body.to, template: "withdrawal_request", data: moneyData(body) });
  })
  .all("*", (c) => c.json({ error: "Not found" }, 404))
  .onError((error, c) => {
    // The JSON validator refuses a body that does not parse with a 400 HTTPException of its own.
    if (error instanceof HTTPException && error.status === 400) return c.json({ error: NOT_JSON }, 400);
    throw error;
  });
