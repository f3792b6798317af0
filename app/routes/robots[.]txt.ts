import type { Route } from "./+types/robots[.]txt";

/** Crawlers may read the public pages; the signed-in areas and the APIs are none of their business. */
export function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const body = [
    "User-agent: *",
    "Allow: /",
    "Disallow: /admin",
    "Disallow: /user/",
    "Disallow: /dashboard",
    "Disallow: /account",
    "Disallow: /deposit",
    "Disallow: /withdraw",
    "Disallow: /trading-room",
    "Disallow: /transactions",
    "Disallow: /statements",
    "Disallow: /portfolio",
    "Disallow: /requests/",
    "Disallow: /cancel-request",
    "Disallow: /api/",
    "Disallow: /ws/",
    "Disallow: /dev/",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
