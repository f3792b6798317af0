import type { Context, MiddlewareHandler } from "hono";
import { NONCE, secureHeaders } from "hono/secure-headers";
import { isTurnstileTestKey } from "../../app/server/env.server";
import { TURNSTILE_ORIGIN } from "../../app/server/turnstile.server";
import type { AppBindings } from "../types";

/**
 * Third-party hosts the pages may load from: the charting widgets, the translation element, the live-chat
 * loader and company logos, plus the security check's host when it is configured (below). Nothing else
 * third-party is allowed.
 */
const THIRD_PARTY_SOURCES = {
  script: [
    "https://s3.tradingview.com",
    "https://translate.google.com",
    "https://translate.googleapis.com",
    "https://translate-pa.googleapis.com",
    "https://embed.tawk.to",
  ],
  style: ["https://www.gstatic.com", "https://translate.googleapis.com"],
  img: [
    "https://logo.clearbit.com",
    "https://www.gstatic.com",
    "https://translate.google.com",
    "https://translate.googleapis.com",
    "https://embed.tawk.to",
  ],
  frame: [
    "https://s.tradingview.com",
    "https://www.tradingview-widget.com",
    "https://www.tradingview.com",
    "https://tawk.to",
  ],
  connect: [
    "https://translate.googleapis.com",
    "https://translate-pa.googleapis.com",
    "https://*.tawk.to",
    "wss://*.tawk.to",
  ],
  font: ["https://fonts.gstatic.com", "https://embed.tawk.to"],
} as const;

/**
 * The configured logo host (LOGO_URL_TEMPLATE) is the one image host that comes from configuration. It is
 * read from the raw binding because these headers are set on every response, including the error page of a
 * deployment whose configuration does not validate.
 */
function imageSources(c: Context<AppBindings>): string {
  const hosts: string[] = [...THIRD_PARTY_SOURCES.img];
  const template = c.env.LOGO_URL_TEMPLATE;
  if (typeof template === "string") {
    try {
      hosts.push(new URL(template.replace("{domain}", "example.com")).origin);
    } catch {
      // Not a URL: configuration validation reports it; the CSP simply does not allow it.
    }
  }
  return [...new Set(hosts)].join(" ");
}

/**
 * Cloudflare Turnstile's script and frame host, when a real site key is configured (read from the raw binding,
 * as above). Cloudflare's test keys never load the script, so local development and tests keep the policy as is.
 */
function turnstileHosts(c: Context<AppBindings>): string[] {
  const siteKey = c.env.TURNSTILE_SITE_KEY;
  return typeof siteKey === "string" && siteKey.trim() !== "" && !isTurnstileTestKey(siteKey.trim())
    ? [TURNSTILE_ORIGIN]
    : [];
}

const scriptSources = (c: Context<AppBindings>) => [...THIRD_PARTY_SOURCES.script, ...turnstileHosts(c)].join(" ");
const frameSources = (c: Context<AppBindings>) => [...THIRD_PARTY_SOURCES.frame, ...turnstileHosts(c)].join(" ");

const headers = (strictTransportSecurity: string | false) =>
  secureHeaders({
    contentSecurityPolicy: {
      defaultSrc: ["'self'"],
      // Scripts run only from our origin, with this response's nonce, or from the named widget hosts.
      scriptSrc: ["'self'", NONCE, scriptSources],
      // React style attributes and the toast library's injected styles need inline styles.
      styleSrc: ["'self'", "'unsafe-inline'", ...THIRD_PARTY_SOURCES.style],
      imgSrc: ["'self'", "data:", imageSources],
      frameSrc: [frameSources],
      connectSrc: ["'self'", ...THIRD_PARTY_SOURCES.connect],
      fontSrc: ["'self'", ...THIRD_PARTY_SOURCES.font],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
    xContentTypeOptions: true,
    referrerPolicy: "strict-origin-when-cross-origin",
    xFrameOptions: "DENY",
    permissionsPolicy: { camera: [], microphone: [], geolocation: [], payment: [] },
    crossOriginOpenerPolicy: "same-origin",
    strictTransportSecurity,
    // Hono's other defaults are not part of our policy.
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    xDnsPrefetchControl: false,
    xDownloadOptions: false,
    xPermittedCrossDomainPolicies: false,
    xXssProtection: false,
  });

// HSTS only in production: local development and tests run on plain http.
const production = headers("max-age=63072000; includeSubDomains; preload");
const elsewhere = headers(false);

/**
 * The security headers on every response, with a fresh CSP nonce per request (hono's NONCE) that the React Router
 * document puts on its scripts: read it with `cspNonce(c)`.
 */
export function securityHeaders(): MiddlewareHandler<AppBindings> {
  return async function securityHeadersMiddleware(c, next) {
    let pagePolicy: string | null = null;
    let ownContentPolicy: string | null = null;
    await (c.env.ENVIRONMENT === "production" ? production : elsewhere)(c, async () => {
      await next();
      pagePolicy = c.res.headers.get("Referrer-Policy");
      ownContentPolicy = c.res.headers.get("Content-Security-Policy");
    });
    // A page whose address carries a secret (the cancel link's token) asks for no referrer at all: kept.
    if (pagePolicy === "no-referrer") c.res.headers.set("Referrer-Policy", "no-referrer");
    // A response that brings its own sandboxing policy keeps it: an identity document's runs nothing at all.
    if (ownContentPolicy && /(^|;)\s*sandbox\s*(;|$)/.test(ownContentPolicy))
      c.res.headers.set("Content-Security-Policy", ownContentPolicy);
  };
}

/** This request's CSP nonce; set by `securityHeaders()` before any handler runs. */
export function cspNonce(c: Context<AppBindings>): string {
  const nonce = c.get("secureHeadersNonce");
  if (!nonce) throw new Error("securityHeaders() must run before a page is rendered");
  return nonce;
}
