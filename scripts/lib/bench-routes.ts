/** The pages `npm run bench` and `npm run bench:d1` drive, with the bench dataset's sessions. */
import { BENCH_USERS, type BenchCookies } from "../bench-data.ts";

export type BenchRoute = { name: string; path: string; cookie?: string };

/**
 * /stocks for a visitor comes from the edge cache after its first request; the same request with a cookie the
 * cache does not know is rendered every time (such a cookie bypasses the cache): the two rows are the cached and
 * uncached rates of one public page.
 */
export function benchRoutes(cookies: BenchCookies): BenchRoute[] {
  return [
    { name: "/healthz", path: "/healthz" },
    { name: "/login", path: "/login" },
    { name: "/stocks (visitor, cached)", path: "/stocks" },
    { name: "/stocks (uncached)", path: "/stocks", cookie: "bench-uncached=1" },
    { name: "/dashboard (light)", path: "/dashboard", cookie: cookies.light },
    { name: "/dashboard (heavy)", path: "/dashboard", cookie: cookies.heavy },
    { name: "/portfolio (light)", path: "/portfolio", cookie: cookies.light },
    { name: "/portfolio (heavy)", path: "/portfolio", cookie: cookies.heavy },
    { name: "/transactions (light)", path: "/transactions", cookie: cookies.light },
    { name: "/transactions (heavy)", path: "/transactions", cookie: cookies.heavy },
    { name: "/admin", path: "/admin", cookie: cookies.admin },
    { name: "/admin/transactions", path: "/admin/transactions", cookie: cookies.admin },
    { name: "/user/{heavy}", path: `/user/${BENCH_USERS.heavy}`, cookie: cookies.admin },
  ];
}

/** BENCH_ONLY=/login,/admin keeps only the routes whose names start so. */
export function pickedByBenchOnly(): (route: { name: string }) => boolean {
  const only = process.env.BENCH_ONLY?.split(",").map((name) => name.trim());
  return (route) => !only || only.some((prefix) => route.name.startsWith(prefix));
}
