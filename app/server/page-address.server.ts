/**
 * The page a request is for. React Router's single fetch asks for a page's data at "{path}.data" ("/_.data" for
 * "/", "{path}/_.data" for a path with a trailing slash; "/_root.data" before React Router 8) with `_routes` and
 * `index` in the query, and loaders and actions see that raw request (React Router 8, `v8_passThroughRequests`).
 * Code that has the route's `url` reads that instead; this serves code that sees only the request: the Hono
 * middleware in front of the router, and the sign-in redirect's "where you were going".
 */
export function pagePath(pathname: string): string {
  if (pathname === "/_root.data") return "/";
  if (pathname.endsWith("/_.data")) return pathname.slice(0, -"_.data".length);
  return pathname.endsWith(".data") ? pathname.slice(0, -".data".length) : pathname;
}

/** The page's path and query, as the address bar shows it. */
export function pageAddress(url: URL): string {
  const search = new URLSearchParams(url.search);
  search.delete("_routes");
  search.delete("index");
  const query = search.toString();
  return `${pagePath(url.pathname)}${query ? `?${query}` : ""}`;
}
