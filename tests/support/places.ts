/**
 * Reading one place of a page, as a person would look at it: a form field's error, the alert banners, a heading,
 * a dialog, the element a test id marks. A test that means a place asserts on it, so that the same words elsewhere
 * on the page (a navigation label, the data a page hydrates from, an earlier toast) cannot make it pass.
 * Regular expressions over the server's HTML, as tests/support/tables.ts reads tables.
 */
import { decodeEntities, textOf } from "./tables";

// The document's head and scripts: tests/support/head.ts.
export { documentTitle, headLinkHref, metaContent, scripts } from "./head";
// What a page shows only once hydrated (its toasts) is read from its data: tests/support/hydration.ts.
export { formReply, hydrationData, replyToast, shownToast } from "./hydration";

const VOID = new Set(["area", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);

/** Elements a person sees as apart from what stands beside them (a card's title and its figure, a term and its value). */
const BLOCK =
  /<\/?(?:address|article|aside|br|button|dd|details|dialog|div|dl|dt|fieldset|figure|footer|form|h[1-6]|header|hr|label|li|main|nav|ol|p|section|summary|table|tbody|td|tfoot|th|thead|tr|ul)(?=[\s>/])[^>]*>/gi;

/** A place's markup as the text a person reads: blocks apart by a space, inline markup (a link, a `<wbr>`) joined. */
export const readText = (html: string) => textOf(html.replace(BLOCK, " "));

const literal = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The whole element (opening tag to its own closing tag, nested ones of its name counted) starting at `start`. */
function elementAt(html: string, start: number): string {
  const open = /^<([a-zA-Z][\w-]*)[^>]*?(\/?)>/.exec(html.slice(start));
  if (!open) return "";
  const [tag, rawName, selfClosing] = open;
  const name = (rawName ?? "").toLowerCase();
  if (selfClosing || VOID.has(name)) return tag;
  const nested = new RegExp(`<(/?)${name}(?=[\\s>/])[^>]*>`, "gi");
  nested.lastIndex = start + tag.length;
  let depth = 1;
  for (let match = nested.exec(html); match; match = nested.exec(html)) {
    depth += match[1] ? -1 : 1;
    if (depth === 0) return html.slice(start, match.index + match[0].length);
  }
  return html.slice(start);
}

/** Every element whose opening tag carries `attribute="value"`, as its markup, in page order. */
export function elementsWith(html: string, attribute: string, value: string): string[] {
  const opening = new RegExp(`<[a-zA-Z][\\w-]*\\s[^>]*?\\b${literal(attribute)}="${literal(value)}"[^>]*>`, "g");
  return [...html.matchAll(opening)].map((match) => elementAt(html, match.index));
}

/** The text of the element marked `data-testid`; null when the page has none. */
export function testIdText(html: string, testId: string): string | null {
  const [first] = elementsWith(html, "data-testid", testId);
  return first === undefined ? null : readText(first);
}

/** The text of every element marked `data-testid` (a list's items, a card per proposal), in page order. */
export function testIdTexts(html: string, testId: string): string[] {
  return elementsWith(html, "data-testid", testId).map(readText);
}

/** The text of every `role="alert"` (an error banner, a refusal beside a button), in page order. */
export function alerts(html: string): string[] {
  return elementsWith(html, "role", "alert").map(readText);
}

/** The text of every `role="status"` (a success banner, a notice that something is waiting), in page order. */
export function statuses(html: string): string[] {
  return elementsWith(html, "role", "status").map(readText);
}

/**
 * The error shown under the form control named `name` (app/components/form.tsx): the message its
 * `aria-describedby` points at, so the message is the one a screen reader reads for that field. Null when the
 * control names no error.
 */
export function fieldError(html: string, name: string): string | null {
  const control = new RegExp(`<(?:input|select|textarea)\\s[^>]*?\\bname="${literal(name)}"[^>]*>`).exec(html)?.[0];
  const described = control && /\baria-describedby="([^"]+)"/.exec(control)?.[1];
  const errorId = described?.split(" ").find((id) => id.endsWith("-error"));
  if (!errorId) return null;
  const [message] = elementsWith(html, "id", errorId);
  return message === undefined ? null : readText(message);
}

/**
 * The hint under the form control named `name` (what the field takes): the element its `aria-describedby` points at
 * whose id ends in `-hint`, as the error above. Null when the control names no hint.
 */
export function fieldHint(html: string, name: string): string | null {
  const control = new RegExp(`<(?:input|select|textarea)\\s[^>]*?\\bname="${literal(name)}"[^>]*>`).exec(html)?.[0];
  const described = control && /\baria-describedby="([^"]+)"/.exec(control)?.[1];
  const hintId = described?.split(" ").find((id) => id.endsWith("-hint"));
  if (!hintId) return null;
  const [hint] = elementsWith(html, "id", hintId);
  return hint === undefined ? null : readText(hint);
}

/**
 * Everything said about the form control named `name` that a screen reader reads with it: each element its
 * `aria-describedby` points at (a hint, an error, a note on why it is asked), in the order it names them. Empty when
 * it names none; null when the page has no such control.
 */
export function fieldDescriptions(html: string, name: string): string[] | null {
  const control = new RegExp(`<(?:input|select|textarea)\\s[^>]*?\\bname="${literal(name)}"[^>]*>`).exec(html)?.[0];
  if (!control) return null;
  const described = /\baria-describedby="([^"]+)"/.exec(control)?.[1];
  return (described?.split(" ") ?? []).flatMap((id) => elementsWith(html, "id", id).slice(0, 1).map(readText));
}

/** The text of every `<tag>` element of the page (its `<footer>`, each `<p>`), in page order. */
export function elementTexts(html: string, tag: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}[\\s>]`, "g"))].map((match) => readText(elementAt(html, match.index)));
}

/** The text of every `<tag>` whose markup holds `needle` (a list item by its link's `href`), in page order. */
export function elementsHolding(html: string, tag: string, needle: string): string[] {
  return [...html.matchAll(new RegExp(`<${tag}[\\s>]`, "g"))]
    .map((match) => elementAt(html, match.index))
    .filter((element) => element.includes(needle))
    .map(readText);
}

/** The page's main heading, its `<h1>`, as text. */
export function heading(html: string): string | null {
  const start = /<h1[\s>]/.exec(html)?.index;
  return start === undefined ? null : readText(elementAt(html, start));
}

/** The error page's title for a refused request (a 403, a 400 with its reason: app/components/route-error.tsx). */
export const REFUSED = "The request could not be processed";

/**
 * What a page's error boundary (app/components/route-error.tsx) says in the route's place: its title, the `<h1>`,
 * and the sentence right under it (a refusal's reason); null when the page has no heading.
 */
export function errorShown(html: string): { title: string; text: string | null } | null {
  const start = /<h1[\s>]/.exec(html)?.index;
  if (start === undefined) return null;
  const title = elementAt(html, start);
  const rest = html.slice(start + title.length);
  const text = /^\s*<p[\s>]/.test(rest) ? readText(elementAt(rest, rest.indexOf("<p"))) : null;
  return { title: readText(title), text };
}

/** The text of every `<dialog>` of the page (open or not: the server renders them closed), in page order. */
export function dialogs(html: string): string[] {
  return [...html.matchAll(/<dialog[\s>]/g)].map((match) => readText(elementAt(html, match.index)));
}

/**
 * The text of the card, panel or form (`<article>`, `<section>`, `<li>`, `<form>`) whose own first heading reads
 * `title`, heading included: a dashboard figure, a plan, an admin card. Null when no such card is on the page.
 */
export function cardTitled(html: string, title: string): string | null {
  for (const match of html.matchAll(/<(?:article|section|li|form)[\s>]/g)) {
    const card = elementAt(html, match.index);
    const start = /<h[1-6][\s>]/.exec(card.slice(1))?.index;
    if (start !== undefined && readText(elementAt(card, start + 1)) === title) return readText(card);
  }
  return null;
}

/** The text of the element marked `data-testid` that holds `needle` (a description, an e-mail); null when none does. */
export function testIdTextWith(html: string, testId: string, needle: string): string | null {
  return testIdTexts(html, testId).find((text) => text.includes(needle)) ?? null;
}

/** The label a person reads for the form control named `name`: its `<label for>`. Null when it has none. */
export function fieldLabel(html: string, name: string): string | null {
  const control = new RegExp(`<(?:input|select|textarea)\\s[^>]*?\\bname="${literal(name)}"[^>]*>`).exec(html)?.[0];
  const id = control && /\bid="([^"]+)"/.exec(control)?.[1];
  if (!id) return null;
  const [label] = elementsWith(html, "for", id).filter((element) => element.startsWith("<label"));
  return label === undefined ? null : readText(label);
}

/** The text of every element named by `aria-label` (a region, an aside), in page order. */
export function labelledTexts(html: string, label: string): string[] {
  return elementsWith(html, "aria-label", label).map(readText);
}

/** The text of every field error of the page (the messages under controls), in page order. */
export function fieldErrors(html: string): string[] {
  return [...html.matchAll(/<[a-z]+\s[^>]*?\bid="[^"]*-error"[^>]*>/g)].map((match) =>
    readText(elementAt(html, match.index)),
  );
}

/** The value a description list gives `term` (`<dt>term</dt><dd>value</dd>`), as text; null when no term reads so. */
export function termValue(html: string, term: string): string | null {
  for (const match of html.matchAll(/<dt[\s>]/g)) {
    const dt = elementAt(html, match.index);
    if (readText(dt) !== term) continue;
    const rest = html.slice(match.index + dt.length);
    const dd = /^\s*<dd[\s>]/.exec(rest) ? elementAt(rest, rest.indexOf("<dd")) : null;
    return dd === null ? null : readText(dd);
  }
  return null;
}

/** The text of every `<button>` of the page (what each says it does), in page order. */
export function buttonTexts(html: string): string[] {
  return [...html.matchAll(/<button[\s>]/g)].map((match) => readText(elementAt(html, match.index)));
}

/** The name of every `<button>` of the page, as a screen reader reads it: its `aria-label`, else its words. */
export function buttonNames(html: string): string[] {
  return [...html.matchAll(/<button[\s>]/g)].map((match) => {
    const button = elementAt(html, match.index);
    const label = /^<button\s[^>]*?\baria-label="([^"]*)"/.exec(button)?.[1];
    return label === undefined ? readText(button) : decodeEntities(label);
  });
}

/** The text of every `<button>` that cannot be pressed (`disabled`), in page order. */
export function disabledButtonTexts(html: string): string[] {
  return [...html.matchAll(/<button\s[^>]*?\bdisabled=""[^>]*>/g)].map((match) =>
    readText(elementAt(html, match.index)),
  );
}

/** The text of every link (`<a>`) of the page, in page order. */
export function linkTexts(html: string): string[] {
  return [...html.matchAll(/<a[\s>]/g)].map((match) => readText(elementAt(html, match.index)));
}

/** The words of every link (`<a>`) to `href` (a `mailto:` address, another page), in page order. */
export function linkTextsTo(html: string, href: string): string[] {
  return elementsWith(html, "href", href)
    .filter((element) => element.startsWith("<a"))
    .map(readText);
}

/**
 * Where the first link reading `text` goes (its `href`, entities decoded): its words, or the name its `aria-label`
 * gives it (a card's "Buy Now" named "Buy AAPL now"). Null when no link reads so.
 */
export function linkHref(html: string, text: string): string | null {
  for (const match of html.matchAll(/<a[\s>]/g)) {
    const link = elementAt(html, match.index);
    const named = /^<a\s[^>]*?\baria-label="([^"]*)"/.exec(link)?.[1];
    if (readText(link) !== text && (named === undefined || decodeEntities(named) !== text)) continue;
    const href = /^<a\s[^>]*?\bhref="([^"]*)"/.exec(link)?.[1];
    return href === undefined ? null : decodeEntities(href);
  }
  return null;
}

/** The `attribute` of the form control named `name` (a search field's placeholder), entities decoded; null when none. */
export function controlAttribute(html: string, name: string, attribute: string): string | null {
  const control = new RegExp(`<(?:input|select|textarea)\\s[^>]*?\\bname="${literal(name)}"[^>]*>`).exec(html)?.[0];
  const value = control && new RegExp(`\\s${literal(attribute)}="([^"]*)"`).exec(control)?.[1];
  return typeof value === "string" ? decodeEntities(value) : null;
}

/** The name (`aria-label`) of every `role="img"` of the page: a QR code, a chart's marks (each read as "label: value"). */
export function imageNames(html: string): string[] {
  return [...html.matchAll(/<[a-z]+\s[^>]*?\brole="img"[^>]*>/g)].map(([tag]) =>
    decodeEntities(/\saria-label="([^"]*)"/.exec(tag)?.[1] ?? ""),
  );
}

/** Where the image whose text alternative reads `alt` is loaded from (its `src`); null when no image reads so. */
export function imageSource(html: string, alt: string): string | null {
  for (const [image] of html.matchAll(/<img\s[^>]*>/g)) {
    if (decodeEntities(/\salt="([^"]*)"/.exec(image)?.[1] ?? "") !== alt) continue;
    return decodeEntities(/\ssrc="([^"]*)"/.exec(image)?.[1] ?? "");
  }
  return null;
}

/**
 * The value the form control named `name` is filled with as the page arrives (its `value` attribute, entities
 * decoded: what a field's `defaultValue` renders to); null when the page has no such control or it has no value.
 */
export function fieldValue(html: string, name: string): string | null {
  const control = new RegExp(`<input\\s[^>]*?\\bname="${literal(name)}"[^>]*>`).exec(html)?.[0];
  const value = control && /\svalue="([^"]*)"/.exec(control)?.[1];
  return typeof value === "string" ? decodeEntities(value) : null;
}

/** What the page says to refuse a form: its error banners and its fields' errors. */
export const refusals = (html: string): string[] => [...alerts(html), ...fieldErrors(html)];
