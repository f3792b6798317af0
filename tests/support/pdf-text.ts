/**
 * A PDF's text as a reader sees it, for the statement PDF tests: each page's lines, top to bottom, each line's
 * pieces left to right. It reads what pdf-lib writes: each page's content streams (inflated by pdf-lib's own
 * decoder), each piece of text a hex string shown with `Tj` at the position the `Tm` before it set, in WinAnsi.
 */
import { decodePDFRawStream, PDFArray, PDFDocument, PDFRawStream } from "pdf-lib";

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

export type PdfLines = string[][];

/** Every page's lines: `pages[0][0]` is the first line of the first page, as an array of its pieces. */
export async function pdfPages(bytes: Uint8Array | ArrayBuffer): Promise<PdfLines[]> {
  const doc = await PDFDocument.load(bytes);
  return doc.getPages().map((page) => {
    const contents = page.node.Contents();
    const streams =
      contents instanceof PDFArray ? contents.asArray().map((ref) => doc.context.lookup(ref)) : [contents];
    const pieces: Array<{ x: number; y: number; text: string }> = [];
    for (const stream of streams) {
      if (!(stream instanceof PDFRawStream)) continue;
      const operators = new TextDecoder("latin1").decode(decodePDFRawStream(stream).decode());
      let x = 0;
      let y = 0;
      for (const match of operators.matchAll(/([-\d.]+) ([-\d.]+) Tm|<([0-9A-Fa-f]*)> Tj/g)) {
        if (match[3] === undefined) {
          x = Number(match[1]);
          y = Number(match[2]);
        } else pieces.push({ x, y, text: decodeHex(match[3]) });
      }
    }
    const lines = new Map<number, Array<{ x: number; text: string }>>();
    for (const piece of pieces) {
      const y = Math.round(piece.y);
      lines.set(y, [...(lines.get(y) ?? []), piece]);
    }
    return [...lines.entries()]
      .sort(([a], [b]) => b - a)
      .map(([, line]) => line.sort((a, b) => a.x - b.x).map((piece) => piece.text));
  });
}

/** The line of a page (or of all pages) whose first piece is `first`. */
export function lineStarting(lines: PdfLines, first: string): string[] | undefined {
  return lines.find((line) => line[0] === first);
}
