/**
 * A small reader of raw bitcoin blocks for the chain simulator's tests, written apart from the simulator (its own
 * varints, node's own SHA-256) so that a mistake in the simulator's serialization is not repeated here and missed.
 */
import { createHash } from "node:crypto";

export interface ReadTx {
  /** Double SHA-256 of the serialization without marker, flag and witnesses, byte-reversed. */
  txid: string;
  inputs: Array<{ txid: string; vout: number }>;
  outputs: Array<{ value: bigint; script: string }>;
  hasWitness: boolean;
}

export interface ReadBlock {
  hash: string;
  previousHash: string;
  timestamp: number;
  txs: ReadTx[];
}

const sha256d = (bytes: Buffer) => createHash("sha256").update(createHash("sha256").update(bytes).digest()).digest();
const reversed = (bytes: Buffer) => Buffer.from(bytes).reverse().toString("hex");

export function readBlock(bytes: Buffer): ReadBlock {
  let at = 0;
  const take = (length: number) => {
    const slice = bytes.subarray(at, at + length);
    if (slice.length !== length) throw new Error(`the block ends early at byte ${at}`);
    at += length;
    return slice;
  };
  const compact = () => {
    const first = take(1)[0] as number;
    if (first < 0xfd) return first;
    if (first === 0xfd) return take(2).readUInt16LE(0);
    if (first === 0xfe) return take(4).readUInt32LE(0);
    return Number(take(8).readBigUInt64LE(0));
  };

  const header = take(80);
  const txs: ReadTx[] = [];
  const count = compact();
  for (let n = 0; n < count; n++) {
    const start = at;
    const version = take(4);
    const hasWitness = bytes[at] === 0 && bytes[at + 1] === 1;
    if (hasWitness) take(2);
    const bodyStart = at;
    const inputs: ReadTx["inputs"] = [];
    for (let i = compact(); i > 0; i--) {
      const txid = reversed(take(32));
      const vout = take(4).readUInt32LE(0);
      take(compact());
      take(4);
      inputs.push({ txid, vout });
    }
    const outputs: ReadTx["outputs"] = [];
    for (let i = compact(); i > 0; i--) {
      const value = take(8).readBigUInt64LE(0);
      outputs.push({ value, script: take(compact()).toString("hex") });
    }
    const bodyEnd = at;
    if (hasWitness) {
      for (let i = 0; i < inputs.length; i++) for (let items = compact(); items > 0; items--) take(compact());
    }
    const locktime = take(4);
    const base = Buffer.concat([version, bytes.subarray(bodyStart, bodyEnd), locktime]);
    if (!hasWitness && !base.equals(bytes.subarray(start, at))) throw new Error("a legacy tx read differently");
    txs.push({ txid: reversed(sha256d(base)), inputs, outputs, hasWitness });
  }
  if (at !== bytes.length) throw new Error(`${bytes.length - at} bytes after the last transaction`);
  return {
    hash: reversed(sha256d(header)),
    previousHash: reversed(header.subarray(4, 36)),
    timestamp: header.readUInt32LE(68),
    txs,
  };
}
