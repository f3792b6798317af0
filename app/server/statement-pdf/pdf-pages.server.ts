/**
 * The page layout every statement PDF shares (pdf-lib, the standard Helvetica fonts, A4): a title block, label and
 * value pairs, tables whose header repeats on each page they run onto, and a footer with the firm's name, when the
 * document was generated and "Page 1 of 3". The documents that use it (monthly-pdf, yearly-pdf) say only what goes
 * in; nothing here knows about money.
 */
import {
  beginText,
  endText,
  PageSizes,
  type PDFDocument,
  type PDFFont,
  type PDFName,
  type PDFPage,
  rgb,
  StandardFonts,
  setFillingGrayscaleColor,
  setFontAndSize,
  setTextMatrix,
  showText,
} from "pdf-lib";
import { formatDateTimeUtc } from "~/lib/format";

const [PAGE_WIDTH, PAGE_HEIGHT] = PageSizes.A4;
const MARGIN = 48;
const FOOTER_Y = 28;
/** Where content stops, above the footer. */
const BOTTOM = 60;
const BODY_SIZE = 8.5;
const ROW_HEIGHT = 13;
/**
 * The space a table keeps between a column's text and the next column's: a right-aligned amount followed by a
 * left-aligned word would otherwise meet ("$250.00 Declined"). Wider than two figures of the body text.
 */
const COLUMN_GAP = 12;
/** Grey levels: black, and a grey that keeps well above 4.5:1 on white. */
const INK = 0;
const MUTED = 0.3;
const RULE = rgb(0.75, 0.75, 0.75);

export interface PdfColumn {
  label: string;
  /** Share of the content width. */
  width: number;
  align?: "left" | "right";
}

export interface PdfRow {
  cells: string[];
  bold?: boolean;
}

/**
 * The standard fonts write WinAnsi only: a typographic minus or a narrow space (Intl's "2:07 PM") becomes its plain
 * form, and any other character the font lacks a "?", rather than the whole document failing on one name.
 */
function printable(font: PDFFont, text: string): string {
  const known = characterSets.get(font) ?? new Set(font.getCharacterSet());
  characterSets.set(font, known);
  return [...text.replace(/\u2212/g, "-").replace(/\p{Zs}/gu, " ")]
    .map((char) => (known.has(char.codePointAt(0) ?? 0) ? char : "?"))
    .join("");
}
const characterSets = new WeakMap<PDFFont, Set<number>>();

/**
 * `text` as it fits in `maxWidth` points: cut, with an ellipsis, when longer (a name of 200 letters would otherwise run
 * off the page). Already printable.
 */
function fitted(font: PDFFont, text: string, size: number, maxWidth: number): string {
  if (font.widthOfTextAtSize(text, size) <= maxWidth) return text;
  let kept = [...text];
  while (kept.length > 0 && font.widthOfTextAtSize(`${kept.join("")}...`, size) > maxWidth) {
    kept = kept.slice(0, Math.max(0, kept.length - Math.max(1, Math.floor(kept.length / 8))));
  }
  return `${kept.join("").trimEnd()}...`;
}

/** A document being laid out, top to bottom, page after page. */
export class PdfPages {
  private page: PDFPage;
  private y = PAGE_HEIGHT - MARGIN;
  private readonly width = PAGE_WIDTH - 2 * MARGIN;
  /** What each page's content has set so far: its font resources, and the current font, size and grey. */
  private readonly states = new Map<
    PDFPage,
    { keys: Map<PDFFont, PDFName>; font: PDFFont | null; size: number; gray: number }
  >();

  private constructor(
    private readonly doc: PDFDocument,
    private readonly regular: PDFFont,
    private readonly bold: PDFFont,
    private readonly firm: string,
  ) {
    this.page = this.newPage();
  }

  static async start(doc: PDFDocument, firm: string, title: string) {
    doc.setTitle(title);
    doc.setAuthor(firm);
    doc.setProducer(firm);
    doc.setCreator(firm);
    const [regular, bold] = await Promise.all([
      doc.embedFont(StandardFonts.Helvetica),
      doc.embedFont(StandardFonts.HelveticaBold),
    ]);
    return new PdfPages(doc, regular, bold, firm);
  }

  private newPage(): PDFPage {
    this.page = this.doc.addPage([PAGE_WIDTH, PAGE_HEIGHT]);
    this.y = PAGE_HEIGHT - MARGIN;
    return this.page;
  }

  /**
   * One piece of text, written as the few operators it needs: pdf-lib's `drawText` adds a font resource and ten
   * operators for each call, which made a 1,000-row statement several times slower to build. Font, size and colour
   * are set only when they change (they last across text objects within a page).
   */
  private text(
    value: string,
    x: number,
    y: number,
    options: { size?: number; bold?: boolean; muted?: boolean; maxWidth?: number },
  ) {
    const font = options.bold ? this.bold : this.regular;
    const size = options.size ?? BODY_SIZE;
    const maxWidth = options.maxWidth ?? PAGE_WIDTH - MARGIN - x;
    const shown = fitted(font, printable(font, value), size, maxWidth);
    const gray = options.muted ? MUTED : INK;
    let state = this.states.get(this.page);
    if (!state) {
      state = { keys: new Map(), font: null, size: 0, gray: -1 };
      this.states.set(this.page, state);
    }
    let key = state.keys.get(font);
    if (!key) {
      key = this.page.node.newFontDictionary(font.name, font.ref);
      state.keys.set(font, key);
    }
    const operators = [beginText()];
    if (state.font !== font || state.size !== size) operators.push(setFontAndSize(key, size));
    if (state.gray !== gray) operators.push(setFillingGrayscaleColor(gray));
    Object.assign(state, { font, size, gray });
    operators.push(setTextMatrix(1, 0, 0, 1, x, y), showText(font.encodeText(shown)), endText());
    this.page.pushOperators(...operators);
  }

  private fits(height: number) {
    if (this.y - height < BOTTOM) this.newPage();
  }

  /** The firm's name, the document's title and the lines under it (the period). */
  heading(title: string, lines: string[]) {
    this.text(this.firm, MARGIN, this.y - 14, { size: 14, bold: true });
    this.text(title, MARGIN, this.y - 36, { size: 18, bold: true });
    this.y -= 44;
    for (const line of lines) {
      this.y -= 14;
      this.text(line, MARGIN, this.y, { size: 10, muted: true });
    }
    this.y -= 12;
  }

  /** Label and value pairs, one a line: "Account holder  Casey Client". */
  details(pairs: Array<[string, string]>) {
    for (const [label, value] of pairs) {
      this.fits(ROW_HEIGHT);
      this.y -= ROW_HEIGHT;
      this.text(label, MARGIN, this.y, { size: 9.5, muted: true });
      this.text(value, MARGIN + 120, this.y, { size: 9.5, bold: true });
    }
    this.y -= 10;
  }

  /** A section's title, kept on the page of what follows it. */
  section(title: string, note?: string) {
    this.fits(60);
    this.y -= 18;
    this.text(title, MARGIN, this.y, { size: 12, bold: true });
    if (note) {
      this.y -= 13;
      this.text(note, MARGIN, this.y, { size: BODY_SIZE, muted: true });
    }
    this.y -= 4;
  }

  /** A line of text (an empty list's sentence). */
  paragraph(value: string) {
    this.fits(ROW_HEIGHT);
    this.y -= ROW_HEIGHT;
    this.text(value, MARGIN, this.y, { muted: true });
  }

  /**
   * A table: its header, then its rows, the header again at the top of each page it continues on. A left-aligned
   * value runs on into the empty cells after it, as in a spreadsheet: a row's label ("Opening balance") is not cut
   * at its column's edge when the row has nothing else to say there.
   */
  table(columns: PdfColumn[], rows: PdfRow[]) {
    const lefts: number[] = [];
    let x = MARGIN;
    for (const column of columns) {
      lefts.push(x);
      x += column.width * this.width;
    }
    const tableRight = x;
    const lastEmptyAfter = (cells: string[], index: number) => {
      let last = index;
      while (last + 1 < columns.length && !cells[last + 1]) last++;
      return last;
    };
    const line = (cells: string[], bold: boolean, muted = false) => {
      cells.forEach((value, index) => {
        const column = columns[index];
        const left = lefts[index] ?? MARGIN;
        if (!column || value === "") return;
        const through = column.align === "right" ? index : lastEmptyAfter(cells, index);
        const columnEnd = (lefts[through] ?? left) + (columns[through]?.width ?? column.width) * this.width;
        // The last column ends with the table's rule, so its amounts line up with the rule's end.
        const right = through === columns.length - 1 ? columnEnd : columnEnd - COLUMN_GAP;
        const font = bold ? this.bold : this.regular;
        const shown = fitted(font, printable(font, value), BODY_SIZE, right - left);
        const at = column.align === "right" ? right - font.widthOfTextAtSize(shown, BODY_SIZE) : left;
        this.text(shown, at, this.y, { bold, muted, maxWidth: right - left });
      });
    };
    const header = () => {
      this.y -= ROW_HEIGHT;
      line(
        columns.map((column) => column.label),
        true,
        true,
      );
      this.page.drawLine({
        start: { x: MARGIN, y: this.y - 4 },
        end: { x: tableRight, y: this.y - 4 },
        thickness: 0.5,
        color: RULE,
      });
      this.y -= 2;
    };
    this.fits(ROW_HEIGHT * 3);
    header();
    for (const row of rows) {
      if (this.y - ROW_HEIGHT < BOTTOM) {
        this.newPage();
        header();
      }
      this.y -= ROW_HEIGHT;
      line(row.cells, row.bold ?? false);
    }
    this.y -= 6;
  }

  /** Every page's footer, once the number of pages is known. */
  finish(generatedAt: number) {
    const pages = this.doc.getPages();
    const generated = `Generated ${formatDateTimeUtc(generatedAt)}`;
    pages.forEach((page, index) => {
      this.page = page;
      this.text(`${this.firm} - ${generated}`, MARGIN, FOOTER_Y, { size: 8, muted: true });
      const number = `Page ${index + 1} of ${pages.length}`;
      const width = this.regular.widthOfTextAtSize(number, 8);
      this.text(number, PAGE_WIDTH - MARGIN - width, FOOTER_Y, { size: 8, muted: true });
    });
  }
}
