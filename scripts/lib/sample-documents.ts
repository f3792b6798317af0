/**
 * Sample identity documents for the local demo, made in code so no real person's papers are ever in the
 * repository: a PNG of a made-up identity card (shapes only) and a one-page PDF of a made-up utility bill.
 */
import { createHash } from "node:crypto";
import { deflateSync } from "node:zlib";

export interface SampleDocument {
  fileName: string;
  contentType: "image/png" | "application/pdf";
  bytes: Uint8Array;
  sha256: string;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

type Rgb = readonly [number, number, number];
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  colour: Rgb;
}

/** An RGB PNG of `width` × `height` filled with `background` and the boxes drawn over it in order. */
export function drawPng(width: number, height: number, background: Rgb, boxes: Box[]): Uint8Array {
  const rows = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    const rowStart = y * (width * 3 + 1);
    rows[rowStart] = 0; // no filter
    for (let x = 0; x < width; x++) {
      const box = boxes.findLast((b) => x >= b.x && x < b.x + b.width && y >= b.y && y < b.y + b.height);
      const [r, g, b] = box?.colour ?? background;
      rows.set([r, g, b], rowStart + 1 + x * 3);
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, truecolour, deflate, no filter, no interlace
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return new Uint8Array(
    Buffer.concat([
      signature,
      pngChunk("IHDR", header),
      pngChunk("IDAT", deflateSync(rows)),
      pngChunk("IEND", new Uint8Array()),
    ]),
  );
}

/** A one-page PDF showing `lines` of text (ASCII), with a correct cross-reference table. */
export function writePdf(lines: string[]): Uint8Array {
  const pdfText = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = ["BT /F1 14 Tf 72 760 Td 18 TL", ...lines.map((line) => `(${pdfText(line)}) '`), "ET"].join("\n");
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>",
    `<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
  ];
  let pdf = "%PDF-1.4\n";
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(pdf));
    pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(pdf);
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) pdf += `${String(offset).padStart(10, "0")} 00000 n \n`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new Uint8Array(Buffer.from(pdf, "latin1"));
}

function sample(fileName: string, contentType: SampleDocument["contentType"], bytes: Uint8Array): SampleDocument {
  return { fileName, contentType, bytes, sha256: createHash("sha256").update(bytes).digest("hex") };
}

/** The front of a made-up identity card: a coloured band, a photo frame and lines where text would be. */
export function sampleIdentityCard(fileName = "identity-card-front.png"): SampleDocument {
  const ink: Rgb = [70, 84, 110];
  const lines = [0, 1, 2, 3, 4].map((n) => ({ x: 190, y: 100 + n * 34, width: 230 - n * 22, height: 12, colour: ink }));
  const png = drawPng(
    480,
    300,
    [236, 242, 250],
    [
      { x: 0, y: 0, width: 480, height: 56, colour: [29, 78, 216] },
      { x: 28, y: 86, width: 132, height: 170, colour: [203, 213, 225] },
      { x: 62, y: 116, width: 64, height: 64, colour: [148, 163, 184] },
      { x: 44, y: 186, width: 100, height: 70, colour: [148, 163, 184] },
      ...lines,
    ],
  );
  return sample(fileName, "image/png", png);
}

/** The back of a made-up identity card: a magnetic-looking band and a barcode of stripes. */
export function sampleIdentityCardBack(fileName = "identity-card-back.png"): SampleDocument {
  const stripes = Array.from({ length: 36 }, (_, n) => ({
    x: 40 + n * 11,
    y: 200,
    width: n % 3 === 0 ? 6 : 3,
    height: 60,
    colour: [30, 41, 59] as const,
  }));
  const png = drawPng(
    480,
    300,
    [236, 242, 250],
    [
      { x: 0, y: 40, width: 480, height: 48, colour: [51, 65, 85] },
      { x: 40, y: 120, width: 260, height: 12, colour: [70, 84, 110] },
      { x: 40, y: 150, width: 200, height: 12, colour: [70, 84, 110] },
      ...stripes,
    ],
  );
  return sample(fileName, "image/png", png);
}

/** A made-up utility bill for `name` at `address`, issued `issuedOn`: a proof of address. */
export function sampleUtilityBill(name: string, address: string, issuedOn: string): SampleDocument {
  const pdf = writePdf([
    "Northwind Power & Water (sample document)",
    "",
    `Account holder: ${name}`,
    `Service address: ${address}`,
    `Statement date: ${issuedOn}`,
    "",
    "Amount due: 54.20 USD",
    "This bill was generated for the local demo; it is not a real document.",
  ]);
  return sample("utility-bill.pdf", "application/pdf", pdf);
}
