/**
 * A PDF's text as a reader sees it, for the statement PDF tests: each page's lines, top to bottom, each line's
 * pieces left to right, and where each piece starts and ends (to measure the gaps between a table's columns). It
 * reads what pdf-lib writes: each page's content streams (inflated by pdf-lib's own decoder), each piece of text a
 * hex string shown with `Tj` at the position the `Tm` before it set, in the font and size the last `Tf` set
 * (standard fonts, WinAnsi).
 */
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, type PDFFont, PDFName, PDFRawStream } from "pdf-lib";

/** WinAnsi's bytes that differ from Latin-1 and that our documents may print. */
const WIN_ANSI: Record<number, string> = { 150: "–", 151: "—", 128: "€" };

function decodeHex(hex: string): string {
  let text = "";
  for (let i = 0; i < hex.length; i += 2) {
    const byte = Number.parseInt(hex.slice(i, i + 2), 16);
    text += WIN_ANSI[byte] ?? String.fromCharCode(byte);
  }
  return text;
}

/** One piece of text on a page, in points from the page's bottom left corner: `right` is where its last letter ends. */
export interface PdfPiece {
  text: string;
  x: number;
  y: number;
  right: number;
}

export type PdfLines = string[][];

/** Every page's pieces of text, in the order they were written. */
export async function pdfPieces(bytes: Uint8Array | ArrayBuffer): Promise<PdfPiece[][]> {
  const doc = await PDFDocument.load(bytes);
  // The standard fonts' metrics, to measure each piece as the document's font sets it.
  const metrics = await PDFDocument.create();
  const fonts = new Map<string, PDFFont>();
  const fontNamed = async (baseFont: string) => {
    const font = fonts.get(baseFont) ?? (await metrics.embedFont(baseFont));
    fonts.set(baseFont, font);
    return font;
  };
  const pages: PdfPiece[][] = [];
  for (const page of doc.getPages()) {
    const resources = page.node.Resources()?.lookupMaybe(PDFName.of("Font"), PDFDict);
    const baseFontOf = (key: string) =>
      resources?.lookup(PDFName.of(key), PDFDict).lookup(PDFName.of("BaseFont"), PDFName).decodeText() ?? "";
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
    const pieces: PdfPiece[] = [];
    let font: PDFFont | undefined;
    let size = 0;
    let x = 0;
    let y = 0;
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const operators = new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode());
      for (const match of operators.matchAll(/\/([^\s/]+) ([\d.]+) Tf|([-\d.]+) ([-\d.]+) Tm|<([0-9A-Fa-f]*)> Tj/g)) {
        if (match[1] !== undefined) {
          font = await fontNamed(baseFontOf(match[1]));
          size = Number(match[2]);
        } else if (match[3] !== undefined) {
          x = Number(match[3]);
          y = Number(match[4]);
        } else {
          const text = decodeHex(match[5] ?? "");
          pieces.push({ text, x, y, right: x + (font?.widthOfTextAtSize(text, size) ?? 0) });
        }
      }
    }
    pages.push(pieces);
  }
  return pages;
}

/** A page's pieces grouped in lines, top to bottom, each line's pieces left to right. */
export function piecesByLine(pieces: PdfPiece[]): PdfPiece[][] {
  const lines = new Map<number, PdfPiece[]>();
  for (const piece of pieces) {
    const y = Math.round(piece.y);
    lines.set(y, [...(lines.get(y) ?? []), piece]);
  }
  return [...lines.entries()].sort(([a], [b]) => b - a).map(([, line]) => line.sort((a, b) => a.x - b.x));
}

/** Every page's lines: `pages[0][0]` is the first line of the first page, as an array of its pieces. */
export async function pdfPages(bytes: Uint8Array | ArrayBuffer): Promise<PdfLines[]> {
  return (await pdfPieces(bytes)).map((page) => piecesByLine(page).map((line) => line.map((piece) => piece.text)));
}

/** The line of a page (or of all pages) whose first piece is `first`. */
export function lineStarting(lines: PdfLines, first: string): string[] | undefined {
  return lines.find((line) => line[0] === first);
}
