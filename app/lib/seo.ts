import type { MetaDescriptor } from "react-router";

/** Root data the meta functions read: the brand and the site's origin (for canonical and Open Graph URLs). */
interface RootMeta {
  brand?: { name: string };
  siteUrl?: string;
}

/** The meta function's `matches`, as far as the brand and the origin need them (a match may be absent). */
export type MetaMatches = ReadonlyArray<{ id: string; loaderData?: unknown } | undefined>;

function rootMeta(matches: MetaMatches): RootMeta {
  return (matches.find((match) => match?.id === "root")?.loaderData ?? {}) as RootMeta;
}

/** A page's title followed by the brand, the way every page names itself: "Dashboard | Northwind Markets". */
export function withBrand(title: string, matches: MetaMatches): string {
  const brand = rootMeta(matches).brand?.name ?? "";
  return brand && title !== brand && !title.endsWith(` | ${brand}`) ? `${title} | ${brand}` : title;
}

/**
 * A page's title, description, canonical URL and Open Graph tags, in one call from a route's `meta`.
 * `matches` is the meta function's argument; the root loader's data supplies brand and origin.
 */
export function seo(
  matches: MetaMatches,
  page: { title: string; description: string; path: string; noindex?: boolean },
): MetaDescriptor[] {
  const root = rootMeta(matches);
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
