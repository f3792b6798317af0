import { FRESH_SECONDS, PUBLIC_CACHE_CONTROL, STALE_SECONDS } from "./policy";

/** Headers kept on a stored entry for our own use, never sent to a browser. */
const STORED_AT = "X-Edge-Cache-Stored-At";
const RENDERED_NONCE = "X-Edge-Cache-Rendered-Nonce";

/** Says how a cacheable page was answered: HIT, STALE (served, being refreshed), MISS (rendered, stored) or BYPASS. */
export const CACHE_STATUS = "X-Edge-Cache";

const digests = new WeakMap<object, Promise<string>>();

/**
 * What a deploy changes, for the key: React Router's `assets.version` (the hash of the client build's manifest, so
 * new pages never meet old scripts), the deployment's version id when Cloudflare's version metadata is bound
 * (every deploy, a server-only or configuration-only one too), and a digest of the configuration's text values
 * (a page shows the brand, the contact addresses, the four-eyes threshold; a digest, so no value, a secret's
 * included, can be read back from a key), worked out once per isolate.
 */
export async function edgeCacheVersion(buildId: string, bindings: Record<string, unknown>): Promise<string> {
  let digest = digests.get(bindings);
  if (!digest) {
    digest = configDigest(bindings);
    digests.set(bindings, digest);
  }
  const deployment = (bindings.CF_VERSION_METADATA as { id?: string } | undefined)?.id ?? "local";
  return `${buildId}.${deployment}.${await digest}`;
}

async function configDigest(bindings: Record<string, unknown>): Promise<string> {
  const text = Object.entries(bindings)
    .filter((entry): entry is [string, string] => typeof entry[1] === "string")
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join("\n");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
  return [...digest.slice(0, 8)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * The cache key of a page: its whole URL (origin, path, query) with the version appended as a last parameter.
 * Appending, never replacing, keeps distinct addresses distinct whatever a visitor puts in the query.
 */
export function edgeCacheKey(pageUrl: string | URL, version: string): Request {
  const url = new URL(pageUrl);
  url.hash = "";
  const separator = url.search === "" ? "?" : "&";
  return new Request(`${url.origin}${url.pathname}${url.search}${separator}edge-cache-version=${version}`);
}

/**
 * The copy to keep: the rendered body and headers without the bookmark cookie (the caller has checked that it
 * is the only cookie), with the time it was stored and the nonce the page was rendered with. The Cache API keeps
 * it for the fresh and the stale window together; which of the two it is in is read from the stored time.
 */
export function entryToStore(response: Response, body: ReadableStream | null, renderedNonce: string): Response {
  const headers = new Headers(response.headers);
  headers.delete("Set-Cookie");
  headers.set("Cache-Control", `public, max-age=${FRESH_SECONDS + STALE_SECONDS}`);
  headers.set(STORED_AT, String(Date.now()));
  headers.set(RENDERED_NONCE, renderedNonce);
  return new Response(body, { status: response.status, headers });
}

/** The headers every cacheable answer carries to the browser, a fresh render included. */
export function markPublic(headers: Headers, status: "HIT" | "STALE" | "MISS") {
  headers.set("Cache-Control", PUBLIC_CACHE_CONTROL);
  headers.append("Vary", "Cookie");
  headers.set(CACHE_STATUS, status);
}

export interface CachedPage {
  response: Response;
  stale: boolean;
}

/**
 * A stored page ready for this response: its age, the public headers, and, in HTML, every `nonce` attribute
 * that holds the nonce it was rendered with changed to this response's nonce (the CSP header the outer
 * middleware sets carries the same). Only those: markup that came with any other nonce, or none, keeps it,
 * and the browser refuses to run it. Data responses (`.data`) carry no nonce and pass as they are.
 */
export function servedFromCache(stored: Response, nonce: string, withBody: boolean): CachedPage {
  const storedAt = Number(stored.headers.get(STORED_AT)) || 0;
  const renderedNonce = stored.headers.get(RENDERED_NONCE) ?? "";
  const ageSeconds = Math.max(0, Math.floor((Date.now() - storedAt) / 1000));
  const stale = ageSeconds >= FRESH_SECONDS;
  const headers = new Headers(stored.headers);
  for (const name of [STORED_AT, RENDERED_NONCE, "CF-Cache-Status", "Age", "Expires"]) headers.delete(name);
  headers.set("Age", String(ageSeconds));
  markPublic(headers, stale ? "STALE" : "HIT");
  if (!withBody) {
    void stored.body?.cancel();
    return { response: new Response(null, { status: stored.status, headers }), stale };
  }
  const response = new Response(stored.body, { status: stored.status, headers });
  const isHtml = headers.get("Content-Type")?.startsWith("text/html") ?? false;
  if (!isHtml || renderedNonce === "") return { response, stale };
  const rewritten = new HTMLRewriter()
    .on("[nonce]", {
      element(element) {
        if (element.getAttribute("nonce") === renderedNonce) element.setAttribute("nonce", nonce);
      },
    })
    .transform(response);
  return { response: rewritten, stale };
}
