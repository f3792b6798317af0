import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { deflateSync } from "node:zlib";
import { BIN, quietEnv, ROOT } from "../../scripts/lib/local-d1";
import { e2eDatabase } from "./database";

/**
 * Identity documents for the browser tests of the review, made here (a PNG drawn pixel by pixel, a one-page PDF)
 * and put straight into the test server's local R2 bucket, as the client's upload would leave them.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 320×200 picture of an identity card: a pale card, a blue band, a grey photo square and three text lines. */
export function sampleIdCardPng(width = 320, height = 200): Buffer {
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      let rgb = [232, 238, 247];
      if (y < 36) rgb = [37, 99, 235];
      else if (x >= 20 && x < 110 && y >= 56 && y < 176) rgb = [148, 163, 184];
      else if (x >= 130 && x < 290 && [70, 100, 130].some((line) => y >= line && y < line + 10)) rgb = [51, 65, 85];
      row.set(rgb, 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.concat(rows))),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A one-page PDF that says it is a utility bill. */
export function sampleBillPdf(): Buffer {
  return Buffer.from(
    "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n" +
      "3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 300 144]/Contents 4 0 R/Resources<</Font<</F1 5 0 R>>>>>>endobj\n" +
      "4 0 obj<</Length 44>>stream\nBT /F1 18 Tf 40 70 Td (Utility bill) Tj ET\nendstream endobj\n" +
      "5 0 obj<</Type/Font/Subtype/Type1/BaseFont/Helvetica>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
  );
}

/** Puts the bytes into the test server's local bucket under `key` (the wrangler CLI, on the server's state). */
export function putDocumentObject(key: string, bytes: Buffer): void {
  const dir = mkdtempSync(join(tmpdir(), "r2-"));
  const file = join(dir, "object");
  try {
    writeFileSync(file, bytes);
    const result = spawnSync(
      join(BIN, "wrangler"),
      [
        "r2",
        "object",
        "put",
        `brokerage-documents/${key}`,
        "--file",
        file,
        "--local",
        "--persist-to",
        e2eDatabase.persistTo,
      ],
      { cwd: ROOT, env: quietEnv, encoding: "utf8" },
    );
    if (result.status !== 0) throw new Error(`r2 object put failed:\n${result.stdout}\n${result.stderr}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
