/**
 * Reading what a page or a CSV shows, as a person would: a table row's cells as text, a CSV's rows by column.
 */

const ENTITIES: Record<string, string> = { "&amp;": "&", "&lt;": "<", "&gt;": ">", "&quot;": '"', "&#x27;": "'" };

/** The entities React writes (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#x27;`) back to their characters. */
export const decodeEntities = (markup: string) =>
  markup.replace(/&(amp|lt|gt|quot|#x27);/g, (entity) => ENTITIES[entity] ?? entity);

/** Markup to the text a person reads: tags dropped, entities decoded, React's text markers gone. */
export function textOf(html: string): string {
  return decodeEntities(html.replaceAll("<!-- -->", "").replace(/<[^>]*>/g, ""))
    .replace(/\s+/g, " ")
    .trim();
}

/**
 * The cells of the table row holding `needle` (a reference, an e-mail), as text; a stacked cell's own
 * column name, shown only at phone width (`sm:hidden`), is left out. Null when no row holds it.
 */
export function rowCells(html: string, needle: string): string[] | null {
  for (const [row] of html.matchAll(/<tr[\s>][\s\S]*?<\/tr>/g)) {
    if (!row.includes(needle)) continue;
    const cells = [...row.matchAll(/<t[dh][\s>][\s\S]*?<\/t[dh]>/g)].map(([cell]) =>
      textOf(cell.replace(/<span class="[^"]*sm:hidden[^"]*">[^<]*<\/span>/g, "")),
    );
    return cells;
  }
  return null;
}

/** Every row of the table marked `data-testid`, as its cells' text. */
export function tableRows(html: string, testId: string): string[][] {
  const table = new RegExp(`<table[^>]*data-testid="${testId}"[\\s\\S]*?</table>`).exec(html)?.[0] ?? "";
  return [...table.matchAll(/<tr[\s>][\s\S]*?<\/tr>/g)].map(([row]) =>
    [...row.matchAll(/<t[dh][\s>][\s\S]*?<\/t[dh]>/g)].map(([cell]) => textOf(cell)),
  );
}

/** A CSV's lines as arrays of fields, quotes undone as RFC 4180 says (the final line break ends the last row). */
export function csvRows(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
      i++;
    } else field += c;
  }
  if (field !== "" || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** A CSV's rows as records keyed by its header. */
export function csvRecords(text: string): Array<Record<string, string>> {
  const [header = [], ...rows] = csvRows(text);
  return rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i] ?? ""])));
}
