/**
 * The outputs of a raw Bitcoin block (Esplora's `/block/:hash/raw`, the consensus serialization): one read per
 * block, however many clients the firm has, where a page of 25 decoded transactions per read would cost 120 reads
 * for a block of 3,000. Only what a deposit needs is read: each transaction's id and its P2WPKH outputs (the only
 * kind of address the portal gives). Transaction ids are the double SHA-256 of the serialization without witnesses
 * (BIP141), byte-reversed as explorers write them.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { p2wpkhAddress } from "./encodings";

export interface BlockOutput {
  /** The transaction's place in the block: `txidOf` gives its id, computed only for the outputs that are ours. */
  tx: number;
  vout: number;
  /** Satoshis. */
  value: bigint;
  address: string;
}

const HEADER_BYTES = 80;

class Reader {
  offset = 0;
  readonly view: DataView;
  // A plain field, not a parameter property: Node's type stripping (the chain bench runs this module) refuses those.
  readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  need(n: number) {
    if (this.offset + n > this.bytes.length) throw new RangeError("Raw block ends early");
  }
  u8() {
    this.need(1);
    return this.view.getUint8(this.offset++);
  }
  u32() {
    this.need(4);
    const value = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return value;
  }
  u64() {
    this.need(8);
    const value = this.view.getBigUint64(this.offset, true);
    this.offset += 8;
    return value;
  }
  varint(): number {
    const first = this.u8();
    if (first < 0xfd) return first;
    if (first === 0xfd) {
      this.need(2);
      const value = this.view.getUint16(this.offset, true);
      this.offset += 2;
      return value;
    }
    if (first === 0xfe) return this.u32();
    const value = this.u64();
    if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError("Raw block has an impossible count");
    return Number(value);
  }
  skip(n: number) {
    this.need(n);
    this.offset += n;
  }
  slice(start: number, end: number) {
    return this.bytes.subarray(start, end);
  }
}

function hashTxid(parts: Uint8Array[]): string {
  const length = parts.reduce((sum, part) => sum + part.length, 0);
  const joined = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return bytesToHex(sha256(sha256(joined)).reverse());
}

export interface ParsedBlock {
  /** The block's own hash (double SHA-256 of its header, as explorers write it) and its parent's. */
  hash: string;
  previousHash: string;
  outputs: BlockOutput[];
  txidOf(tx: number): string;
}

/** The P2WPKH outputs of every transaction of a raw block, with addresses of the given bech32 prefix. */
export function blockOutputs(raw: Uint8Array, prefix: string): ParsedBlock {
  if (raw.length < HEADER_BYTES) throw new RangeError("Raw block ends early");
  const header = raw.subarray(0, HEADER_BYTES);
  const hash = bytesToHex(sha256(sha256(header)).reverse());
  const previousHash = bytesToHex(header.slice(4, 36).reverse());
  const reader = new Reader(raw);
  const spans: Array<[Uint8Array, Uint8Array, Uint8Array]> = [];
  reader.skip(HEADER_BYTES);
  const count = reader.varint();
  const outputs: BlockOutput[] = [];
  for (let t = 0; t < count; t++) {
    const start = reader.offset;
    reader.skip(4);
    const segwit = reader.bytes[reader.offset] === 0 && reader.bytes[reader.offset + 1] === 1;
    if (segwit) reader.skip(2);
    const bodyStart = reader.offset;
    const inputs = reader.varint();
    for (let i = 0; i < inputs; i++) {
      reader.skip(36);
      reader.skip(reader.varint());
      reader.skip(4);
    }
    const outputCount = reader.varint();
    const found: Omit<BlockOutput, "tx">[] = [];
    for (let vout = 0; vout < outputCount; vout++) {
      const value = reader.u64();
      const scriptLength = reader.varint();
      const scriptStart = reader.offset;
      reader.skip(scriptLength);
      const script = reader.slice(scriptStart, reader.offset);
      if (scriptLength === 22 && script[0] === 0x00 && script[1] === 0x14) {
        found.push({ vout, value, address: p2wpkhAddress(script.subarray(2), prefix) });
      }
    }
    const bodyEnd = reader.offset;
    if (segwit) {
      for (let i = 0; i < inputs; i++) {
        const items = reader.varint();
        for (let k = 0; k < items; k++) reader.skip(reader.varint());
      }
    }
    const lockStart = reader.offset;
    reader.skip(4);
    spans.push([
      reader.slice(start, start + 4),
      reader.slice(bodyStart, bodyEnd),
      reader.slice(lockStart, lockStart + 4),
    ]);
    // A coinbase's outputs are not spendable for 100 blocks: never a deposit.
    if (t > 0) for (const output of found) outputs.push({ tx: t, ...output });
  }
  if (reader.offset !== raw.length) throw new RangeError("Raw block has bytes after its last transaction");
  const ids = new Map<number, string>();
  return {
    hash,
    previousHash,
    outputs,
    txidOf(tx) {
      const span = spans[tx];
      if (!span) throw new RangeError(`No transaction ${tx} in this block`);
      const known = ids.get(tx) ?? hashTxid(span);
      ids.set(tx, known);
      return known;
    },
  };
}
