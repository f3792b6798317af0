/**
 * Reading a page's document head and scripts, as a browser takes them: its title, a `<meta>`'s content, a `<link>`'s
 * target, the scripts it loads and their nonces. tests/support/places.ts reads what the page shows.
 */
import { decodeEntities } from "./tables";

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The document's title, as a browser's tab shows it (the `<title>` of its head, entities decoded); null if none. */
export function documentTitle(html: string): string | null {
  const head = /<head[\s>][\s\S]*?<\/head>/.exec(html)?.[0] ?? "";
  const title = /<title>([^<]*)<\/title>/.exec(head)?.[1];
  return typeof title === "string" ? decodeEntities(title) : null;
}

/** The `content` of the document's `<meta>` named `key` (by `name` or `property`: a description, og:title); null if none. */
export function metaContent(html: string, key: string): string | null {
  const meta = new RegExp(`<meta\\s[^>]*?\\b(?:name|property)="${literal(key)}"[^>]*>`).exec(html)?.[0];
  const content = meta && /\scontent="([^"]*)"/.exec(meta)?.[1];
  return typeof content === "string" ? decodeEntities(content) : null;
}

/** Where the document's `<link rel="…">` of `rel` points (the canonical address, the icon, the manifest); null if none. */
export function headLinkHref(html: string, rel: string): string | null {
  const link = new RegExp(`<link\\s[^>]*?\\brel="${literal(rel)}"[^>]*>`).exec(html)?.[0];
  const href = link && /\shref="([^"]*)"/.exec(link)?.[1];
  return typeof href === "string" ? decodeEntities(href) : null;
}

/** Every `<script>` of the page, as where it loads from (`src`, entities decoded; null for an inline one) and its nonce. */
export function scripts(html: string): Array<{ src: string | null; nonce: string | null }> {
  return [...html.matchAll(/<script\b[^>]*>/g)].map(([tag]) => {
    const src = /\ssrc="([^"]*)"/.exec(tag)?.[1];
    return { src: src === undefined ? null : decodeEntities(src), nonce: /\snonce="([^"]*)"/.exec(tag)?.[1] ?? null };
  });
}
