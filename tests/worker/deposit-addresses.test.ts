import { sha256 } from "@noble/hashes/sha2.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import { createBase58check } from "@scure/base";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { describe, expect, it } from "vitest";
import {
  type DepositChain,
  deriveAddress,
  firstAddresses,
  KEY_MESSAGES,
  MAX_ADDRESS_INDEX,
  readAccountKey,
} from "~/lib/chain/addresses";
import { checksummedHex, ethereumAddress, tronAddress, tronFromBytes } from "~/lib/chain/encodings";
import { BIP84, ETHEREUM, SLIP132_XPUB, SLIP132_YPUB, TESTNET, TRON } from "../support/chain-vectors";

/**
 * Deposit addresses from watch-only account keys (docs/decisions/0066), checked inside workerd, where the product
 * derives them, against published vectors. Each account key is derived here from its mnemonic, so a vector is
 * checked from the seed to the address: a mistake in the key reading, the path or the encoding fails it.
 */

// BIP39's test mnemonic, the one BIP84, SLIP-0132 and most wallet test suites use.
const ABANDON = "abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about";
// Trezor's test mnemonic ("all" twelve times), the one of trezor-firmware's TRON device tests.
const ALL = Array.from({ length: 12 }, () => "all").join(" ");

const ZPUB = { public: 0x04b24746, private: 0x04b2430c };
const VPUB = { public: 0x045f1cf6, private: 0x045f18bc };
const TPUB = { public: 0x043587cf, private: 0x04358394 };

const abandonSeed = mnemonicToSeedSync(ABANDON);
const account = (path: string, versions?: { public: number; private: number }, seed = abandonSeed) =>
  HDKey.fromMasterSeed(seed, versions).derive(path);

/** The key read for a chain, or the test fails with the refusal. */
function read(text: string, chain: DepositChain) {
  const reading = readAccountKey(text, chain);
  if (!reading.ok) throw new Error(reading.error);
  return reading.key;
}

const refusal = (text: string, chain: DepositChain) => {
  const reading = readAccountKey(text, chain);
  return reading.ok ? null : reading.error;
};

describe("Bitcoin from a BIP84 zpub", () => {
  const derived = account("m/84'/0'/0'", ZPUB);

  it("derives BIP84's account key from the mnemonic", () => {
    expect(derived.privateExtendedKey).toBe(BIP84.accountZprv);
    expect(derived.publicExtendedKey).toBe(BIP84.accountZpub);
  });

  it("gives BIP84's first and second receiving addresses and public keys", () => {
    const key = read(BIP84.accountZpub, "bitcoin");
    expect(key).toMatchObject({ chain: "bitcoin", network: "mainnet", kind: "zpub" });
    expect(deriveAddress(key, 0)).toBe(BIP84.first.address);
    expect(deriveAddress(key, 1)).toBe(BIP84.second.address);
    const publicKeyHex = (i: number) =>
      Array.from(key.key.deriveChild(0).deriveChild(i).publicKey ?? [], (b) => b.toString(16).padStart(2, "0")).join(
        "",
      );
    expect(publicKeyHex(0)).toBe(BIP84.first.pubkey);
    expect(publicKeyHex(1)).toBe(BIP84.second.pubkey);
  });

  it("shows the first three receiving addresses for the wallet-change form, never a change address", () => {
    const preview = firstAddresses(`  ${BIP84.accountZpub}\n`, "bitcoin");
    expect(preview).toEqual({
      ok: true,
      network: "mainnet",
      kind: "zpub",
      addresses: [BIP84.first.address, BIP84.second.address, deriveAddress(read(BIP84.accountZpub, "bitcoin"), 2)],
    });
    if (preview.ok) expect(preview.addresses).not.toContain(BIP84.firstChange);
  });

  it("writes a vpub's addresses for testnet (tb1q)", () => {
    expect(account("m/84'/1'/0'", VPUB).publicExtendedKey).toBe(TESTNET.accountVpub);
    const preview = firstAddresses(TESTNET.accountVpub, "bitcoin", 1);
    expect(preview).toEqual({ ok: true, network: "testnet", kind: "vpub", addresses: [TESTNET.first] });
  });
});

describe("Ethereum and USDT (ERC-20) from a BIP44 xpub", () => {
  it("derives the account xpub at m/44'/60'/0' from the mnemonic", () => {
    expect(account("m/44'/60'/0'").publicExtendedKey).toBe(ETHEREUM.accountXpub);
  });

  it("gives the mnemonic's well-known addresses at m/44'/60'/0'/0/i, EIP-55 checksummed, for both chains", () => {
    for (const chain of ["ethereum", "usdt_erc20"] as const) {
      const key = read(ETHEREUM.accountXpub, chain);
      expect(key).toMatchObject({ chain, network: "mainnet", kind: "xpub" });
      expect(deriveAddress(key, 0)).toBe(ETHEREUM.addresses[0]);
      expect(firstAddresses(ETHEREUM.accountXpub, chain)).toEqual({
        ok: true,
        network: "mainnet",
        kind: "xpub",
        addresses: ETHEREUM.addresses,
      });
    }
  });

  it("gives from the xpub alone the addresses of the private keys at m/44'/60'/0'/0/i", () => {
    const fromPrivate = [0, 1, 2].map((i) =>
      ethereumAddress(account(`m/44'/60'/0'/0/${i}`).publicKey ?? new Uint8Array()),
    );
    expect(fromPrivate).toEqual(ETHEREUM.addresses);
  });

  it("writes EIP-55's own test addresses", () => {
    // EIP-55, "Test Cases": all caps, all lower and mixed.
    for (const address of [
      "0x52908400098527886E0F7030069857D2E4169EE7",
      "0xde709f2102306220921060314715629080e2fb77",
      "0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed",
      "0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359",
      "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB",
      "0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb",
    ]) {
      expect(checksummedHex(address.slice(2).toLowerCase())).toBe(address);
    }
  });
});

describe("USDT (TRC-20) from a BIP44 xpub at coin type 195", () => {
  it("gives the mnemonic's TRON addresses at m/44'/195'/0'/0/i", () => {
    expect(account("m/44'/195'/0'").publicExtendedKey).toBe(TRON.accountXpub);
    const key = read(TRON.accountXpub, "usdt_trc20");
    expect(key).toMatchObject({ chain: "usdt_trc20", network: "mainnet", kind: "xpub" });
    expect(deriveAddress(key, 0)).toBe("TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH");
    expect(firstAddresses(TRON.accountXpub, "usdt_trc20")).toEqual({
      ok: true,
      network: "mainnet",
      kind: "xpub",
      addresses: TRON.addresses,
    });
  });

  it("gives trezor-firmware's TRON address for its own mnemonic and public key", () => {
    // trezor-firmware, TRON get_address device test: "all" x12 at m/44'/195'/0'/0/0; its unit test: the same
    // address from the uncompressed public key.
    const key = read(account("m/44'/195'/0'", undefined, mnemonicToSeedSync(ALL)).publicExtendedKey, "usdt_trc20");
    expect(deriveAddress(key, 0)).toBe("TY72iA3SBtrds3QLYsS7LwYfkzXwAXCRWT");
    const uncompressed = hexToBytes(
      "04aee772c640a56bfd434cc6c41b661467f0fac8ad922cd0d6f37a25a9faab506c9d687d8d4ad0957ca8a07b15db6b39ab2fa56cc81b49f2f92d44e1cdd2f4f266",
    );
    expect(tronAddress(uncompressed)).toBe("TY72iA3SBtrds3QLYsS7LwYfkzXwAXCRWT");
  });

  it("writes TRON's documented hex addresses in base58check", () => {
    // TRON developer docs: the hex (41…) and base58 forms of one address; USDT's TRC-20 contract.
    expect(tronFromBytes(hexToBytes("8840E6C55B9ADA326D211D818C34A994AECED808"))).toBe(
      "TNPeeaaFB7K9cmo4uQpcU32zGK8G1NYqeL",
    );
    expect(tronFromBytes(hexToBytes("a614f803b6fd780986a42c78ec9c7f77e6ded13c"))).toBe(
      "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
    );
  });
});

describe("refusing a key", () => {
  const base58check = createBase58check(sha256);
  /** The same key with other version bytes: what a wallet exporting the wrong kind, or a relabelling tool, gives. */
  const relabel = (key: string, version: number) => {
    const bytes = base58check.decode(key);
    new DataView(bytes.buffer, bytes.byteOffset).setUint32(0, version);
    return base58check.encode(bytes);
  };

  it("refuses every private key, whatever its kind, and says the portal holds public keys only", () => {
    const keys = [
      BIP84.accountZprv,
      account("m/44'/60'/0'").privateExtendedKey,
      account("m/84'/1'/0'", VPUB).privateExtendedKey,
      account("m/44'/1'/0'", TPUB).privateExtendedKey,
    ];
    expect(keys.map((key) => key.slice(0, 4))).toEqual(["zprv", "xprv", "vprv", "tprv"]);
    for (const key of keys) {
      for (const chain of ["bitcoin", "ethereum", "usdt_trc20"] as const) {
        expect(refusal(key, chain)).toBe(KEY_MESSAGES.privateKey);
      }
    }
    // A private key behind public version bytes is still a private key.
    expect(refusal(relabel(BIP84.accountZprv, ZPUB.public), "bitcoin")).toBe(KEY_MESSAGES.privateKey);
    expect(KEY_MESSAGES.privateKey).toContain("public keys only");
  });

  it("refuses a key of the wrong kind for the chain", () => {
    expect(refusal(SLIP132_XPUB, "bitcoin")).toBe(KEY_MESSAGES.wrongKind("bitcoin", "xpub"));
    expect(refusal(SLIP132_YPUB, "bitcoin")).toBe(KEY_MESSAGES.wrongKind("bitcoin", "ypub"));
    expect(refusal(BIP84.accountZpub, "ethereum")).toBe(KEY_MESSAGES.wrongKind("ethereum", "zpub"));
    expect(refusal(BIP84.accountZpub, "usdt_trc20")).toBe(KEY_MESSAGES.wrongKind("usdt_trc20", "zpub"));
    expect(refusal(ETHEREUM.accountXpub, "bitcoin")).toBe(KEY_MESSAGES.wrongKind("bitcoin", "xpub"));
    const tpub = account("m/44'/1'/0'", TPUB).publicExtendedKey;
    expect(refusal(tpub, "usdt_erc20")).toBe(KEY_MESSAGES.wrongKind("usdt_erc20", "tpub"));
    expect(refusal(relabel(BIP84.accountZpub, 0x01020304), "bitcoin")).toBe(KEY_MESSAGES.unknownKind("bitcoin"));
    expect(KEY_MESSAGES.wrongKind("bitcoin", "xpub")).toBe(
      "Bitcoin needs a BIP84 zpub (native segwit; vpub on testnet), not an xpub",
    );
  });

  it("refuses a mistyped, cut or foreign text", () => {
    // One character changed: the checksum catches it.
    const typo = `${BIP84.accountZpub.slice(0, 60)}${BIP84.accountZpub[60] === "a" ? "b" : "a"}${BIP84.accountZpub.slice(61)}`;
    expect(refusal(typo, "bitcoin")).toBe(KEY_MESSAGES.badChecksum);
    // The BIP84 zpub with a corrupted tail, as it circulates in some copies.
    expect(
      refusal(
        "zpub6rFR7y4Q2AijBEqTUquhVz398htDFrtymD9xYYfG1m4wAcvPhXNfE3EfH1r1ADqtfSdVCToUG868RvUUkgDA61r2Y6pZ73Lk6AjHnH7pFQ",
        "bitcoin",
      ),
    ).toBe(KEY_MESSAGES.badChecksum);
    expect(refusal(BIP84.accountZpub.slice(0, -1), "bitcoin")).toBe(KEY_MESSAGES.badChecksum);
    expect(refusal(BIP84.accountZpub.slice(0, 50), "bitcoin")).toBe(KEY_MESSAGES.notAKey);
    expect(refusal(BIP84.first.address, "bitcoin")).toBe(KEY_MESSAGES.notAKey);
    expect(refusal("0x9858EfFD232B4033E47d90003D41EC34EcaEda94", "ethereum")).toBe(KEY_MESSAGES.notAKey);
    expect(refusal("   ", "ethereum")).toBe(KEY_MESSAGES.required);
  });

  it("refuses a key that is not an account key (depth 3, hardened)", () => {
    expect(refusal(BIP84.rootZpub, "bitcoin")).toBe(KEY_MESSAGES.wrongDepth("bitcoin", 0));
    expect(refusal(account("m/44'/60'/0'/0").publicExtendedKey, "ethereum")).toBe(
      KEY_MESSAGES.wrongDepth("ethereum", 4),
    );
    expect(KEY_MESSAGES.wrongDepth("ethereum", 4)).toBe(
      "This key is at depth 4: Ethereum needs the account key, depth 3 (m/44'/60'/0')",
    );
    expect(refusal(account("m/84'/0'/0", ZPUB).publicExtendedKey, "bitcoin")).toBe(KEY_MESSAGES.notHardened("bitcoin"));
  });

  it("refuses a key whose public key is not on the curve", () => {
    const bytes = base58check.decode(BIP84.accountZpub);
    bytes.set(new Uint8Array(32).fill(0xff), 46);
    expect(refusal(base58check.encode(bytes), "bitcoin")).toBe(KEY_MESSAGES.badPoint);
  });
});

describe("address indexes", () => {
  const key = read(BIP84.accountZpub, "bitcoin");

  it("derives only non-hardened indexes, the ones a public key can reach", () => {
    expect(deriveAddress(key, MAX_ADDRESS_INDEX)).toMatch(/^bc1q[a-z0-9]{38}$/);
    for (const index of [-1, 1.5, MAX_ADDRESS_INDEX + 1, Number.NaN]) {
      expect(() => deriveAddress(key, index)).toThrow(RangeError);
    }
  });

  it("runs in workerd, where the product derives", () => {
    expect(navigator.userAgent).toBe("Cloudflare-Workers");
  });
});
