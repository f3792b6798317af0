import type { MiddlewareHandler } from "hono";
import type { AppBindings } from "../types";

/**
 * Third-party hosts the pages may load from (DESIGN §7): the charting widgets, the translation element,
 * the live-chat loader and company logos. Nothing else third-party is allowed.
 */
export const THIRD_PARTY_SOURCES = {
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

export function contentSecurityPolicy(nonce: string, extraImageOrigins: readonly string[] = []): string {
  const src = (list: readonly string[]) => [...new Set(list)].join(" ");
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' ${src(THIRD_PARTY_SOURCES.script)}`,
    // React style attributes and the toast library's injected styles need inline styles; scripts stay nonce-only.
    `style-src 'self' 'unsafe-inline' ${src(THIRD_PARTY_SOURCES.style)}`,
    `img-src 'self' data: ${src([...THIRD_PARTY_SOURCES.img, ...extraImageOrigins])}`,
    `frame-src ${src(THIRD_PARTY_SOURCES.frame)}`,
    `connect-src 'self' ${src(THIRD_PARTY_SOURCES.connect)}`,
    `font-src 'self' ${src(THIRD_PARTY_SOURCES.font)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The configured logo host (LOGO_URL_TEMPLATE) is the one image host that comes from configuration. */
function logoOrigin(template: unknown): string[] {
  if (typeof template !== "string") return [];
  try {
    return [new URL(template.replace("{domain}", "example.com")).origin];
  } catch {
    return [];
  }
}

function createNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/** Sets a per-request CSP nonce (read by the Remix document) and the security headers on every response. */
export function securityHeaders(): MiddlewareHandler<AppBindings> {
  return async function securityHeadersMiddleware(c, next) {
    const nonce = createNonce();
    c.set("cspNonce", nonce);
    await next();
    // A websocket handshake's response is the runtime's; its headers cannot be changed.
    if (c.res.status === 101) return;
    const headers = c.res.headers;
    headers.set("Content-Security-Policy", contentSecurityPolicy(nonce, logoOrigin(c.env.LOGO_URL_TEMPLATE)));
    headers.set("X-Content-Type-Options", "nosniff");
    headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
    headers.set("X-Frame-Options", "DENY");
    headers.set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()");
    headers.set("Cross-Origin-Opener-Policy", "same-origin");
    if (c.env.ENVIRONMENT === "production") {
      headers.set("Strict-Transport-Security", "max-age=63072000; includeSubDomains; preload");
    }
  };
}
