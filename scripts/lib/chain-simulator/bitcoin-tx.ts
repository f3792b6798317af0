/**
 * Bitcoin transactions and blocks in their real serialization, so that what a watcher parses from `/block/:hash/raw`
 * is what it would parse from a node: version 2, segwit marker and witnesses when an input has one, the txid the
 * double SHA-256 of the serialization without witnesses, a block header whose hash is its own double SHA-256.
 */
import { bech32 } from "@scure/base";
import {
  concat,
  fromReversedHex,
  randomBytes,
  reversedHex,
  sha256d,
  toHex,
  uint32LE,
  uint64LE,
  varint,
  withLength,
} from "./bytes.ts";

export interface BitcoinOutput {
  value: bigint;
  /** The 20-byte witness program of a P2WPKH output. */
  program: Uint8Array;
  /** The address as watchers are shown it (Esplora's scriptpubkey_address). */
  address: string;
}

export interface BitcoinInput {
  /** The spent outpoint's txid, as displayed (byte-reversed hex); all zeros for a coinbase. */
  txid: string;
  vout: number;
  scriptSig: Uint8Array;
  sequence: number;
  witness: Uint8Array[];
}

export interface BitcoinTx {
  txid: string;
  inputs: BitcoinInput[];
  outputs: BitcoinOutput[];
  /** What the inputs held beyond the outputs; not in the bytes (inputs carry no value), told by Esplora. */
  fee: bigint;
  /** The serialization with witnesses (the same as `base` when there are none). */
  raw: Uint8Array;
  base: Uint8Array;
}

const COINBASE_TXID = "0".repeat(64);
/** Opts in to replace-by-fee (BIP 125), as wallets do by default now. */
const RBF_SEQUENCE = 0xfffffffd;

/** The witness program of a v0 P2WPKH address (any of tb1, bcrt1, bc1), or null. */
export function p2wpkhProgram(address: string): Uint8Array | null {
  const lower = address.trim().toLowerCase();
  if (!/^(tb|bcrt|bc)1/.test(lower)) return null;
  try {
    const { prefix, words } = bech32.decode(lower as `${string}1${string}`);
    if (!["tb", "bcrt", "bc"].includes(prefix) || words[0] !== 0) return null;
    const program = bech32.fromWords(words.slice(1));
    return program.length === 20 ? program : null;
  } catch {
    return null;
  }
}

export const p2wpkhAddress = (prefix: string, program: Uint8Array) =>
  bech32.encode(prefix, [0, ...bech32.toWords(program)]);

/** `0x00 0x14 <program>`: the scriptPubKey of a P2WPKH output. */
export const p2wpkhScript = (program: Uint8Array) => concat(Uint8Array.of(0x00, 0x14), program);

/** An output to a fresh random key of the same network: change, a replacement's payee. */
export function randomOutput(prefix: string, value: bigint): BitcoinOutput {
  const program = randomBytes(20);
  return { value, program, address: p2wpkhAddress(prefix, program) };
}

function serialize(inputs: BitcoinInput[], outputs: BitcoinOutput[], withWitness: boolean): Uint8Array {
  const segwit = withWitness && inputs.some((input) => input.witness.length > 0);
  return concat(
    uint32LE(2),
    segwit ? Uint8Array.of(0x00, 0x01) : new Uint8Array(),
    varint(inputs.length),
    ...inputs.map((input) =>
      concat(fromReversedHex(input.txid), uint32LE(input.vout), withLength(input.scriptSig), uint32LE(input.sequence)),
    ),
    varint(outputs.length),
    ...outputs.map((output) => concat(uint64LE(output.value), withLength(p2wpkhScript(output.program)))),
    ...(segwit
      ? inputs.map((input) => concat(varint(input.witness.length), ...input.witness.map((item) => withLength(item))))
      : []),
    uint32LE(0),
  );
}

export function buildTx(inputs: BitcoinInput[], outputs: BitcoinOutput[], fee: bigint): BitcoinTx {
  const base = serialize(inputs, outputs, false);
  return { txid: reversedHex(sha256d(base)), inputs, outputs, fee, raw: serialize(inputs, outputs, true), base };
}

/** A spend of one outpoint nobody tracks, signed with a dummy P2WPKH witness (a 72-byte signature, a 33-byte key). */
export function dummyInput(outpoint?: { txid: string; vout: number }): BitcoinInput {
  return {
    txid: outpoint?.txid ?? toHex(randomBytes(32)),
    vout: outpoint?.vout ?? 0,
    scriptSig: new Uint8Array(),
    sequence: RBF_SEQUENCE,
    witness: [randomBytes(72), concat(Uint8Array.of(0x02), randomBytes(32))],
  };
}

/** A script number: little-endian, as few bytes as it takes, a zero byte added where the top bit would read as sign. */
function scriptNumber(value: number): Uint8Array {
  const bytes: number[] = [];
  for (let rest = value; rest > 0; rest = Math.floor(rest / 256)) bytes.push(rest % 256);
  if ((bytes.at(-1) ?? 0) & 0x80) bytes.push(0);
  return Uint8Array.from(bytes);
}

/** The block's first transaction: the height pushed as BIP 34 asks, then `tag` so that a replaced block differs. */
export function coinbaseTx(height: number, tag: Uint8Array, payee: BitcoinOutput): BitcoinTx {
  const scriptSig = concat(withLength(scriptNumber(height)), withLength(tag));
  const input: BitcoinInput = { txid: COINBASE_TXID, vout: 0xffffffff, scriptSig, sequence: 0xffffffff, witness: [] };
  return buildTx([input], [payee], 0n);
}

export const isCoinbase = (tx: BitcoinTx) => tx.inputs[0]?.txid === COINBASE_TXID;

/** The merkle root of the txids, pairing the last with itself on odd levels, as Bitcoin does. */
function merkleRoot(txids: string[]): Uint8Array {
  let level = txids.map((txid) => fromReversedHex(txid));
  while (level.length > 1) {
    const next: Uint8Array[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] as Uint8Array;
      next.push(sha256d(concat(left, level[i + 1] ?? left)));
    }
    level = next;
  }
  return level[0] ?? new Uint8Array(32);
}

/** Regtest's easiest target: the header is valid-looking without any work. */
const BITS = 0x207fffff;

export function blockHeader(previousHash: string, txs: BitcoinTx[], timestamp: number): Uint8Array {
  return concat(
    uint32LE(0x20000000),
    fromReversedHex(previousHash),
    merkleRoot(txs.map((tx) => tx.txid)),
    uint32LE(timestamp),
    uint32LE(BITS),
    uint32LE(0),
  );
}

export const blockBytes = (header: Uint8Array, txs: BitcoinTx[]) =>
  concat(header, varint(txs.length), ...txs.map((tx) => tx.raw));
