import { z } from "zod";
import { utcDayStart } from "../lib/history-filters";
import type { FeedHub } from "../lib/realtime";
import { DEFAULT_VERIFICATION_INTRODUCED_AT } from "../lib/verification";
import { settingsReader } from "./settings-reader.server";

/**
 * Cloudflare's documented Turnstile test keys. The always-pass pair is the default outside production, so local
 * development, CI and the browser tests (all offline) need no real keys; the server then accepts every form
 * without asking Cloudflare (see app/server/turnstile.server.ts).
 */
export const TURNSTILE_TEST_KEYS = {
  sitePasses: "1x00000000000000000000AA",
  siteFails: "2x00000000000000000000AB",
  secretPasses: "1x0000000000000000000000000000000AA",
  secretFails: "2x0000000000000000000000000000000AA",
  secretSpent: "3x0000000000000000000000000000000AA",
} as const;

/** Cloudflare's test keys all read: a digit, "x", zeros, two capital letters. */
export const isTurnstileTestKey = (key: string) => /^[1-3]x0+[A-F]{2}$/.test(key);

const turnstileKey = (name: string) =>
  z
    .string()
    .trim()
    .regex(/^[\w.-]*$/, `${name} must be a Turnstile key (letters, digits, '_', '-' and '.')`)
    .optional()
    .default("");

/** A whole number of US dollars (0 or more), with its default when absent or empty. */
const wholeDollars = (name: string, fallback: string) =>
  z
    .preprocess(
      (value) => (value === undefined || value === "" ? fallback : String(value).trim()),
      z.string().regex(/^\d{1,9}$/, `${name} must be a whole number of US dollars (0 or more)`),
    )
    .transform(Number);

/** A whole number of US dollars, or undefined when absent or empty (its default then follows another setting). */
const optionalWholeDollars = (name: string) =>
  z.preprocess(
    (value) => (value === undefined || value === "" ? undefined : String(value).trim()),
    z
      .string()
      .regex(/^\d{1,9}$/, `${name} must be a whole number of US dollars (0 or more)`)
      .transform(Number)
      .optional(),
  );

/** Resend's API, where mail goes unless RESEND_BASE_URL says otherwise. */
export const RESEND_API_URL = "https://api.resend.com";

/** A setting that may be absent; an empty value counts as absent. */
const optionalSetting = z
  .string()
  .trim()
  .optional()
  .transform((value) => value || undefined);

/** A UTC calendar day, `YYYY-MM-DD`, as the epoch milliseconds of its midnight; `fallback` when absent or empty. */
const utcDay = (name: string, fallback: number) =>
  optionalSetting.transform((day, ctx) => {
    if (day === undefined) return fallback;
    const start = utcDayStart(day);
    if (start !== null) return start;
    ctx.addIssue({ code: "custom", message: `${name} must be a day as YYYY-MM-DD, e.g. 2026-11-25` });
    return z.NEVER;
  });

/**
 * Configuration, read from wrangler vars and secrets and validated once per isolate.
 * A missing or weak secret fails loudly at the first request instead of running insecurely.
 */
const appEnvSchema = z
  .object({
    ENVIRONMENT: z.enum(["development", "test", "production"]),
    SESSION_SECRET: z.string().min(32, "SESSION_SECRET must be at least 32 characters"),
    MAIL_API_TOKEN: z.string().min(16, "MAIL_API_TOKEN must be at least 16 characters"),
    RESEND_API_KEY: z.string().optional().default(""),
    /**
     * The mail provider's API address (a var): Resend's own by default; under `npm run dev` the local simulator
     * (scripts/mail-simulator.ts), so that an outage can be tried end to end. Kept without a trailing slash.
     */
    RESEND_BASE_URL: z
      .preprocess(
        (value) => (value === undefined || value === "" ? RESEND_API_URL : String(value).trim()),
        z.url({ protocol: /^https?$/, error: "RESEND_BASE_URL must be an http(s) URL such as https://api.resend.com" }),
      )
      .transform((url) => url.replace(/\/+$/, "")),
    BRAND_NAME: z.string().min(1),
    SUPPORT_EMAIL: z.email(),
    ADMIN_MAILBOX: z.email(),
    /** The sender address of every notice; its domain must be verified with the mail provider. */
    MAIL_FROM: z.email(),
    /** Company logos by domain, on the stock detail page: "{domain}" is replaced. Its host is allowed by the CSP. */
    LOGO_URL_TEMPLATE: z
      .string()
      .regex(/^https:\/\/[^/]+\/.*\{domain\}/, "LOGO_URL_TEMPLATE must be an https URL containing {domain}")
      .optional()
      .default("https://logo.clearbit.com/{domain}"),
    /** The four support addresses of /contact-us, comma-separated. */
    CONTACT_EMAILS: z
      .string()
      .optional()
      .default(
        "support@northwind.example,accounts@northwind.example,compliance@northwind.example,partners@northwind.example",
      )
      .transform((value) =>
        value
          .split(",")
          .map((address) => address.trim())
          .filter(Boolean),
      ),
    /** A claim about the business shown on the landing page ("5M+"); empty shows no number at all. */
    TRADERS_CLAIM: z.string().max(40).optional().default(""),
    /**
     * The site's own address ("https://portal.example"), for the links mails carry (reset, confirmation) and the
     * passkeys' relying party. Required in production; elsewhere, without it, they use the address the request came
     * to.
     */
    SITE_URL: z
      .string()
      .regex(/^https?:\/\/[^/]+\/?$/, "SITE_URL must be an origin such as https://portal.example")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /** Live chat (tawk.to): "propertyId/widgetId"; absent means no chat script at all. */
    LIVE_CHAT_TAWK_ID: z
      .string()
      .regex(/^[A-Za-z0-9]+\/[A-Za-z0-9]+$/, "LIVE_CHAT_TAWK_ID must look like propertyId/widgetId")
      .optional()
      .or(z.literal("").transform(() => undefined)),
    /**
     * Four eyes (a var): admin ledger entries and approvals of client requests (deposits, stock deposits,
     * withdrawals) of this many US dollars or more wait for a second admin's approval; 0 means every one does. Deposit-wallet changes always do, whatever the amount.
     */
    FOUR_EYES_THRESHOLD: wholeDollars("FOUR_EYES_THRESHOLD", "10000"),
    /**
     * Approval limits per admin (a var, whole US dollars): what one admin's own entries and withdrawal approvals
     * over all clients may total in a rolling 24 hours before the next one waits for a second admin. Unset or
     * empty: five times FOUR_EYES_THRESHOLD.
     */
    ADMIN_DAILY_LIMIT: optionalWholeDollars("ADMIN_DAILY_LIMIT"),
    /**
     * Identity verification (vars, whole US dollars; docs/product.md, "Identity verification"): an unverified
     * client's pending plus approved deposits may total at most UNVERIFIED_DEPOSIT_LIMIT; a verified client's
     * pending plus approved withdrawals at most WITHDRAWAL_LIMIT_DAY over a rolling 24 hours and
     * WITHDRAWAL_LIMIT_MONTH over a rolling 30 days.
     */
    UNVERIFIED_DEPOSIT_LIMIT: wholeDollars("UNVERIFIED_DEPOSIT_LIMIT", "2000"),
    WITHDRAWAL_LIMIT_DAY: wholeDollars("WITHDRAWAL_LIMIT_DAY", "25000"),
    WITHDRAWAL_LIMIT_MONTH: wholeDollars("WITHDRAWAL_LIMIT_MONTH", "100000"),
    /**
     * The day identity verification began (a var, a UTC day): an account registered before it has its 14 days
     * from that day. Unset or empty: production's day, 2026-11-25. A local run sets an earlier day so that an old
     * unverified account reaches Restricted (.dev.vars.example). Read as epoch milliseconds.
     */
    VERIFICATION_INTRODUCED_AT: utcDay("VERIFICATION_INTRODUCED_AT", DEFAULT_VERIFICATION_INTRODUCED_AT),
    /**
     * Transaction monitoring (vars; docs/product.md, "Transaction monitoring"): a client's request of
     * AML_LARGE_AMOUNT whole US dollars or more is a large transaction (and the structuring rule's bar); more than
     * AML_VELOCITY_COUNT requests in 24 hours is velocity.
     */
    AML_LARGE_AMOUNT: wholeDollars("AML_LARGE_AMOUNT", "10000"),
    AML_VELOCITY_COUNT: z
      .preprocess(
        (value) => (value === undefined || value === "" ? "5" : String(value).trim()),
        z.string().regex(/^[1-9]\d{0,3}$/, "AML_VELOCITY_COUNT must be a whole number of requests (1 or more)"),
      )
      .transform(Number),
    /**
     * "off" stops the monitoring rules, after requests and in the cron: it exists so the bench can measure what
     * monitoring costs a request (`npm run bench`); refused in production.
     */
    AML_MONITORING: z.enum(["on", "off"]).optional().default("on"),
    /** "fast" lowers the scrypt cost for tests; refused in production. */
    PASSWORD_HASH_COST: z.enum(["standard", "fast"]).optional().default("standard"),
    /**
     * A secret: the AES-GCM key that encrypts two-factor secrets at rest, 32 random bytes in base64
     * (`openssl rand -base64 32`). Changing it makes every enrolled authenticator unreadable.
     */
    TOTP_ENCRYPTION_KEY: z
      .string()
      .trim()
      .refine(
        (value) => /^[A-Za-z0-9+/]{43}=$/.test(value) && atob(value).length === 32,
        "TOTP_ENCRYPTION_KEY must be 32 bytes in base64 (openssl rand -base64 32)",
      ),
    /** OAuth sign-in: each provider is offered only when both its client id and secret are set. */
    GOOGLE_CLIENT_ID: optionalSetting,
    GOOGLE_CLIENT_SECRET: optionalSetting,
    GITHUB_CLIENT_ID: optionalSetting,
    GITHUB_CLIENT_SECRET: optionalSetting,
    /**
     * Browser tests only: a loopback origin ("http://127.0.0.1:8790") whose fake provider answers in place of
     * Google's and GitHub's endpoints (app/server/auth/oauth.server.ts). Refused in production.
     */
    OAUTH_TEST_ENDPOINTS: optionalSetting.pipe(
      z
        .string()
        .regex(
          /^http:\/\/(127\.0\.0\.1|localhost|\[::1\]):\d{1,5}$/,
          "OAUTH_TEST_ENDPOINTS must be a loopback origin such as http://127.0.0.1:8790",
        )
        .optional(),
    ),
    /** Cloudflare Turnstile (a var, public): the widget's site key. Required in production. */
    TURNSTILE_SITE_KEY: turnstileKey("TURNSTILE_SITE_KEY"),
    /** Cloudflare Turnstile (a secret): siteverify's key. Required in production. */
    TURNSTILE_SECRET_KEY: turnstileKey("TURNSTILE_SECRET_KEY"),
  })
  .refine((env) => !(env.ENVIRONMENT === "production" && env.PASSWORD_HASH_COST === "fast"), {
    message: "PASSWORD_HASH_COST=fast is not allowed in production",
    path: ["PASSWORD_HASH_COST"],
  })
  .refine((env) => !(env.ENVIRONMENT === "production" && env.AML_MONITORING === "off"), {
    message: "AML_MONITORING=off is not allowed in production",
    path: ["AML_MONITORING"],
  })
  // The API key travels with every request to the provider.
  .refine((env) => env.ENVIRONMENT !== "production" || env.RESEND_BASE_URL.startsWith("https://"), {
    message: "RESEND_BASE_URL must be an https URL in production",
    path: ["RESEND_BASE_URL"],
  })
  .refine((env) => !(env.ENVIRONMENT === "production" && env.OAUTH_TEST_ENDPOINTS), {
    message: "OAUTH_TEST_ENDPOINTS is not allowed in production",
    path: ["OAUTH_TEST_ENDPOINTS"],
  })
  // Mail links and the passkeys' relying party (its RP ID and origin) are the site's own address: in production
  // never the Host a request claims.
  .refine((env) => env.ENVIRONMENT !== "production" || env.SITE_URL !== undefined, {
    message: "SITE_URL must be set in production",
    path: ["SITE_URL"],
  })
  .refine((env) => env.ENVIRONMENT !== "production" || env.TURNSTILE_SITE_KEY !== "", {
    message: "TURNSTILE_SITE_KEY must be set in production",
    path: ["TURNSTILE_SITE_KEY"],
  })
  .refine((env) => env.ENVIRONMENT !== "production" || env.TURNSTILE_SECRET_KEY !== "", {
    message: "TURNSTILE_SECRET_KEY must be set in production",
    path: ["TURNSTILE_SECRET_KEY"],
  })
  // Outside production an unset key is Cloudflare's always-pass test key (an older .dev.vars has none).
  .transform((env) => ({
    ...env,
    ADMIN_DAILY_LIMIT: env.ADMIN_DAILY_LIMIT ?? env.FOUR_EYES_THRESHOLD * 5,
    TURNSTILE_SITE_KEY: env.TURNSTILE_SITE_KEY || TURNSTILE_TEST_KEYS.sitePasses,
    TURNSTILE_SECRET_KEY: env.TURNSTILE_SECRET_KEY || TURNSTILE_TEST_KEYS.secretPasses,
  }));

export type AppEnv = z.infer<typeof appEnvSchema>;

/** The raw Worker bindings, as wrangler.toml and the secrets provide them. */
export interface WorkerBindings {
  DB: D1Database;
  ASSETS?: Fetcher;
  CLIENT_FEED: DurableObjectNamespace<FeedHub>;
  ADMIN_DESK: DurableObjectNamespace<FeedHub>;
  /** Identity documents: a private bucket, read only through the Worker (never public, never cached). */
  DOCUMENTS: R2Bucket;
  /** Statement PDFs of closed months, built once (private like DOCUMENTS; a cache: anything in it may be deleted). */
  STATEMENTS: R2Bucket;
  /** Delivered mail's bodies after 30 days, one immutable object per batch (private; never overwritten). */
  MAIL_ARCHIVE: R2Bucket;
  /** Audit rows after 13 months, one immutable object per batch, kept five years (private; never overwritten). */
  AUDIT_ARCHIVE: R2Bucket;
  /** Where deposits paid on chain are read (wrangler.toml [vars]; the chain simulator's locally). */
  BITCOIN_ESPLORA_URL?: string;
  ETHEREUM_RPC_URL?: string;
  RATES_URL?: string;
  USDT_ERC20_CONTRACT?: string;
  BITCOIN_NETWORK?: string;
  /** Block explorers a recorded payout links to (`<url>/tx/<id>`). */
  BITCOIN_EXPLORER_URL?: string;
  ETHEREUM_EXPLORER_URL?: string;
  /** The chain id the Ethereum node must answer (1, mainnet, unless set). */
  ETHEREUM_CHAIN_ID?: string;
  /** Where stock quotes are read (Alpaca's Market Data API; the quotes simulator's locally), its keys, their age. */
  QUOTES_URL?: string;
  QUOTES_KEY_ID?: string;
  QUOTES_SECRET_KEY?: string;
  QUOTE_MAX_AGE_SECONDS?: string;
  [key: string]: unknown;
}

export const readAppEnv: (bindings: WorkerBindings) => AppEnv = settingsReader(appEnvSchema, (env) => env);

export const isProduction = (env: AppEnv) => env.ENVIRONMENT === "production";

export function logoUrl(env: AppEnv, domain: string): string {
  return env.LOGO_URL_TEMPLATE.replace("{domain}", encodeURIComponent(domain));
}
