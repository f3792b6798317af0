/**
 * The page a request is for. React Router's single fetch asks for a page's data at "{path}.data", "/_.data" for "/"
 * and "{path}/_.data" for a path with a trailing slash (`v8_trailingSlashAwareDataRequests`, React Router 8's format),
 * with `_routes` and `index` in the query; loaders and actions see that raw request (`v8_passThroughRequests`).
 * Code that has the route's `url` reads that instead; this serves code given only the request: the Hono middleware
 * in front of the router, and the sign-in redirect's "where you were going".
 */
export function pagePath(pathname: string): string {
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
