import { PUBLIC_PATHS } from "~/lib/seo";
import { STOCKS } from "~/lib/stocks";
import type { Route } from "./+types/sitemap[.]xml";

/** The public pages and every stock page. */
export function loader({ request }: Route.LoaderArgs) {
  const origin = new URL(request.url).origin;
  const paths = [...PUBLIC_PATHS, ...STOCKS.map((stock) => `/stocks/${stock.symbol}`)];
  const body = `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${paths.map((path) => `  <url><loc>${origin}${path}</loc></url>`).join("\n")}
</urlset>
`;
  return new Response(body, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
