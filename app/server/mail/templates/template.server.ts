import { z } from "zod";
import type { AppEnv } from "../../env.server";
import type { RenderedEmail } from "../compose.server";

/**
 * One mail the product sends: the data it needs (validated when it is enqueued and again when a stored row is
 * rendered) and how it renders from that data. The layout every template shares is `compose` (../compose.server).
 */
export interface MailTemplate<Schema extends z.ZodType = z.ZodType> {
  schema: Schema;
  render: (data: z.infer<Schema>, env: AppEnv) => RenderedEmail;
}

export const mailTemplate = <Schema extends z.ZodType>(
  schema: Schema,
  render: (data: z.infer<Schema>, env: AppEnv) => RenderedEmail,
): MailTemplate<Schema> => ({ schema, render });

/* The fields templates share. Every value that reaches HTML goes through `escapeHtml` in `compose`. */
export const amount = z.number().positive().finite();
export const address = z.string().trim().min(1).max(200);
export const personName = z.string().trim().max(200);
export const walletType = z.string().trim().min(1).max(50);
/** Links in mails go to our own pages: http(s) only, never javascript: or data:. */
export const link = z.url({ protocol: /^https?$/ });
/** A transaction, shown as its reference; optional where notices stored before it must still render. */
export const transactionId = z.number().int().positive();
