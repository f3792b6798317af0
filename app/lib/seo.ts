import type { MetaDescriptor } from "@remix-run/cloudflare";

/** Root data the meta functions read: the brand and the site's origin (for canonical and Open Graph URLs). */
interface RootMeta {
  brand?: { name: string };
  siteUrl?: string;
}

/** A page's title followed by the brand, the way every page names itself: "Dashboard | Northwind Markets". */
export function withBrand(title: string, matches: ReadonlyArray<{ id: string; data: unknown }>): string {
  const brand = ((matches.find((match) => match.id === "root")?.data ?? {}) as RootMeta).brand?.name ?? "";
  return brand && title !== brand && !title.endsWith(` | ${brand}`) ? `${title} | ${brand}` : title;
}

/**
 * A page's title, description, canonical URL and Open Graph tags, in one call from a route's `meta`.
 * `matches` is the meta function's argument; the root loader's data supplies brand and origin.
 */
export function seo(
  matches: ReadonlyArray<{ id: string; data: unknown }>,
  page: { title: string; description: string; path: string; noindex?: boolean },
): MetaDescriptor[] {
  const root = (matches.find((match) => match.id === "root")?.data ?? {}) as RootMeta;
  const brand = root.brand?.name ?? "";
  const title = withBrand(page.title, matches);
  const url = `${root.siteUrl ?? ""}${page.path}`;
  return [
    { title },
    { name: "description", content: page.description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: brand },
    { property: "og:title", content: title },
    { property: "og:description", content: page.description },
    { property: "og:url", content: url },
    ...(page.noindex ? [{ name: "robots", content: "noindex" }] : []),
  ];
}

/** The public pages, for the sitemap and the crawler rules. */
export const PUBLIC_PATHS = [
  "/",
  "/about-us",
  "/trading-plan",
  "/stocks",
  "/contact-us",
  "/privacy",
  "/terms-of-service",
  "/login",
  "/register",
] as const;
