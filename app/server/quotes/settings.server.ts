/**
 * Where stock quotes are read (wrangler vars and a secret; locally the quotes simulator `npm run dev` starts): the
 * provider's address, its key pair, and how old a quote may be to count as a price. An empty QUOTES_URL means no
 * quotes: every read answers "unavailable" (the worker tests' default). Validated once per isolate, like the rest.
 */
import { z } from "zod";
import { settingsReader } from "../settings-reader.server";

const settingsSchema = z
  .object({
    ENVIRONMENT: z.string().optional(),
    /** Alpaca's Market Data API (https://data.alpaca.markets), or a stand-in speaking it. */
    QUOTES_URL: z
      .string()
      .trim()
      .optional()
      .transform((value) => value?.replace(/\/+$/, "") || undefined)
      .refine((value) => value === undefined || /^https?:\/\/[^\s]+$/.test(value), "QUOTES_URL must be an http(s) URL"),
    QUOTES_KEY_ID: z.string().trim().optional().default(""),
    QUOTES_SECRET_KEY: z.string().trim().optional().default(""),
    QUOTE_MAX_AGE_SECONDS: z.preprocess(
      (value) => (value === undefined || value === "" ? "15" : String(value).trim()),
      z
        .string()
        .regex(/^\d{1,4}$/, "QUOTE_MAX_AGE_SECONDS must be a whole number of seconds")
        .transform(Number)
        .refine((n) => n >= 1, "QUOTE_MAX_AGE_SECONDS must be at least 1"),
    ),
  })
  .refine((s) => s.ENVIRONMENT !== "production" || !s.QUOTES_URL || s.QUOTES_URL.startsWith("https://"), {
    message: "QUOTES_URL must be https in production",
  });

export interface QuoteSettings {
  /** Absent: no provider, no quotes. */
  url?: string;
  keyId: string;
  secretKey: string;
  maxAgeMs: number;
}

/** The quote settings of these bindings. */
export const quoteSettings = settingsReader(
  settingsSchema,
  (s): QuoteSettings => ({
    url: s.QUOTES_URL,
    keyId: s.QUOTES_KEY_ID,
    secretKey: s.QUOTES_SECRET_KEY,
    maxAgeMs: s.QUOTE_MAX_AGE_SECONDS * 1000,
  }),
);
