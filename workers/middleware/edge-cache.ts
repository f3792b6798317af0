import type { Context, MiddlewareHandler } from "hono";
import { readAppEnv } from "../../app/server/env.server";
import {
  CACHE_STATUS,
  edgeCacheKey,
  edgeCacheVersion,
  entryToStore,
  markPublic,
  servedFromCache,
} from "../edge-cache/entry";
import { carriesPageCookie, isCacheablePath, isStorable } from "../edge-cache/policy";
import type { AppBindings } from "../types";
import { cspNonce } from "./security-headers";

type Bindings = AppBindings["Bindings"];

export interface EdgeCacheOptions {
  /** What a deploy changes; the Worker passes React Router's `build.assets.version` (see `edgeCacheVersion`). */
  buildId: string;
  /** The whole Worker, to render a stale page again in the background, as a request of its own. */
  renderAgain: (request: Request, bindings: Bindings, ctx: ExecutionContext) => Promise<Response>;
}

/** The background renders under way: one `renderAgain` request per key in this isolate at a time. */
const refreshes = new WeakSet<Request>();
const refreshing = new Set<string>();

/**
 * Public pages for visitors from Cloudflare's cache (`caches.default`), before the database is opened: a hit
 * touches neither D1 nor React Router. See docs/decisions/0026-public-pages-from-the-edge-cache.md. Bypassed by any
 * method but GET and HEAD, any cookie that may change the page (the session's, the toast's: see
 * `carriesPageCookie`) and every other path. A render is kept only when `isStorable` says so.
 */
export function edgeCache(options: EdgeCacheOptions): MiddlewareHandler<AppBindings> {
  return async function edgeCacheMiddleware(c, next) {
    const method = c.req.method;
    if ((method !== "GET" && method !== "HEAD") || !isCacheablePath(new URL(c.req.url).pathname)) return next();
    if (carriesPageCookie(readAppEnv(c.env), c.req.raw)) {
      await next();
      c.res.headers.set(CACHE_STATUS, "BYPASS");
      return;
    }
    // Workers' own cache: the DOM typings of `caches` in this project do not know `default`.
    const cache = (caches as unknown as { default: Cache }).default;
    const key = edgeCacheKey(c.req.url, await edgeCacheVersion(options.buildId, c.env));
    if (refreshes.has(c.req.raw)) return renderAndStore(c, next, cache, key, true);

    // A cache that cannot be read is a miss: the page is rendered as if there were no cache.
    const stored = await cache.match(key).catch((error: unknown) => {
      console.error("edge cache: reading a page failed:", error);
      return undefined;
    });
    if (stored) {
      const { response, stale } = servedFromCache(stored, cspNonce(c), method === "GET");
      if (stale) refreshInBackground(c, options, key);
      c.res = response;
      return;
    }
    // HEAD renders no body to keep: it is answered, not stored.
    if (method === "HEAD") return next();
    return renderAndStore(c, next, cache, key, false);
  };
}

/**
 * Renders the page, answers with it and keeps a copy: the body is split in two so the visitor's copy streams
 * while the other is written to the cache in the background (or, for a background refresh, before it ends).
 */
async function renderAndStore(
  c: Context<AppBindings>,
  next: () => Promise<void>,
  cache: Cache,
  key: Request,
  waitForStore: boolean,
) {
  const renderedNonce = cspNonce(c);
  await next();
  const rendered = c.res;
  if (!isStorable(rendered)) return;
  const [forVisitor, forCache] = rendered.body ? rendered.body.tee() : [null, null];
  const storing = cache.put(key, entryToStore(rendered, forCache, renderedNonce)).catch((error: unknown) => {
    console.error("edge cache: storing a page failed:", error);
  });
  if (waitForStore) await storing;
  else c.executionCtx.waitUntil(storing);
  const headers = new Headers(rendered.headers);
  markPublic(headers, "MISS");
  // Replaced, not reassigned: Hono would merge the old response's headers back in.
  c.res = undefined;
  c.res = new Response(forVisitor, { status: rendered.status, headers });
}

/** Serves stale now and renders anew once, in the background, with no visitor's cookie in the request. */
function refreshInBackground(c: Context<AppBindings>, options: EdgeCacheOptions, key: Request) {
  if (refreshing.has(key.url)) return;
  refreshing.add(key.url);
  const request = new Request(c.req.url, { headers: { "User-Agent": c.req.header("User-Agent") ?? "" } });
  refreshes.add(request);
  const refresh = options
    .renderAgain(request, c.env, c.executionCtx as ExecutionContext)
    .then((response) => response.body?.cancel())
    .catch((error: unknown) => console.error("edge cache: refreshing a stale page failed:", error))
    .finally(() => refreshing.delete(key.url));
  c.executionCtx.waitUntil(refresh);
}
