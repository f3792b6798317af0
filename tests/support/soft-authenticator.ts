import { type CBORType, encodeCBOR } from "@levischuck/tiny-cbor";
import { encodeBase64urlNoPadding } from "@oslojs/encoding";
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  PublicKeyCredentialType,
  RegistrationResponseJSON,
} from "@simplewebauthn/server";

/**
 * A passkey in memory that answers WebAuthn ceremonies as a browser and its platform authenticator would, so that
 * worker tests can register and sign in with passkeys through the app's routes. WebCrypto only: it runs in workerd.
 * Overrides let a test lie about one thing (origin, RP ID, challenge, user verification, ...) in a single answer.
 */

const DEFAULT_ORIGIN = "http://localhost";
const ES256 = -7;
const P256_KEY = { name: "ECDSA", namedCurve: "P-256" } as const;
const ES256_SIGNATURE = { name: "ECDSA", hash: "SHA-256" } as const;

// Authenticator data flags (WebAuthn §6.1): user present, user verified, backup eligible, backed up, attested data.
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const BACKUP_ELIGIBLE = 0x08;
const BACKED_UP = 0x10;
const ATTESTED_CREDENTIAL_DATA = 0x40;

/** Browsers report these for a platform passkey that can also be used from a phone. */
const TRANSPORTS = ["internal", "hybrid"];
/** "none" attestation carries no authenticator model: its AAGUID is all zeros. */
const NO_AAGUID = new Uint8Array(16);

/** Bytes backed by a plain ArrayBuffer, as WebCrypto's signatures ask. */
type Bytes = Uint8Array<ArrayBuffer>;

type RegisterOverrides = { origin?: string; rpId?: string; challenge?: string; userVerified?: boolean; type?: string };
type AssertOverrides = {
  origin?: string;
  rpId?: string;
  challenge?: string;
  userVerified?: boolean;
  /** The counter to sign with, for this answer only (the authenticator's own counter is left as it is). */
  counter?: number;
  /** null leaves userHandle out of the answer. */
  userHandle?: string | null;
  credentialId?: string;
};

/** A passkey held in memory: an ES256 (P-256) key pair, a credential id, a signature counter. */
export class SoftAuthenticator {
  readonly credentialId: string;
  /** Signature counter; each assert() adds 1 before signing unless told otherwise. */
  counter = 0;
  /** Set by register() from options.user.id (base64url), sent back by assert(). */
  userHandle: string | null = null;

  private constructor(
    private readonly keys: CryptoKeyPair,
    private readonly rawId: Uint8Array,
    private readonly origin: string,
    private readonly backupFlags: number,
  ) {
    this.credentialId = encodeBase64urlNoPadding(rawId);
  }

  /** Backup eligible and backed up by default, as a synced passkey (iCloud Keychain, Google Password Manager) is. */
  static async create(
    options: { origin?: string; backupEligible?: boolean; backedUp?: boolean } = {},
  ): Promise<SoftAuthenticator> {
    // Not extractable, as on a real authenticator: only the public key leaves (WebCrypto always lets it).
    const keys = (await crypto.subtle.generateKey(P256_KEY, false, ["sign", "verify"])) as CryptoKeyPair;
    const rawId = crypto.getRandomValues(new Uint8Array(32));
    const backupFlags =
      (options.backupEligible === false ? 0 : BACKUP_ELIGIBLE) | (options.backedUp === false ? 0 : BACKED_UP);
    return new SoftAuthenticator(keys, rawId, options.origin ?? DEFAULT_ORIGIN, backupFlags);
  }

  /** navigator.credentials.create()'s answer, as @simplewebauthn/browser's startRegistration would return it (fmt "none"). */
  async register(
    options: PublicKeyCredentialCreationOptionsJSON,
    overrides: RegisterOverrides = {},
  ): Promise<RegistrationResponseJSON> {
    this.userHandle = options.user.id;
    const origin = overrides.origin ?? this.origin;
    const clientDataJSON = clientData("webauthn.create", overrides.challenge ?? options.challenge, origin);
    const rawPublicKey = new Uint8Array(await crypto.subtle.exportKey("raw", this.keys.publicKey));
    const authenticatorData = concat(
      await this.authenticatorDataHead(overrides.rpId ?? options.rp.id ?? new URL(origin).hostname, {
        userVerified: overrides.userVerified,
        counter: this.counter,
        attested: true,
      }),
      NO_AAGUID,
      uint16(this.rawId.length),
      this.rawId,
      coseEc2PublicKey(rawPublicKey),
    );
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authenticatorData],
      ]),
    );
    const spki = new Uint8Array(await crypto.subtle.exportKey("spki", this.keys.publicKey));
    return {
      id: this.credentialId,
      rawId: this.credentialId,
      response: {
        clientDataJSON: encodeBase64urlNoPadding(clientDataJSON),
        attestationObject: encodeBase64urlNoPadding(attestationObject),
        transports: [...TRANSPORTS],
        // Browsers add these so that servers need not parse CBOR; the library ignores them, an app may not.
        publicKeyAlgorithm: ES256,
        publicKey: encodeBase64urlNoPadding(spki),
        authenticatorData: encodeBase64urlNoPadding(authenticatorData),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      type: (overrides.type ?? "public-key") as PublicKeyCredentialType,
    };
  }

  /** navigator.credentials.get()'s answer, as startAuthentication would return it. */
  async assert(
    options: PublicKeyCredentialRequestOptionsJSON,
    overrides: AssertOverrides = {},
  ): Promise<AuthenticationResponseJSON> {
    const origin = overrides.origin ?? this.origin;
    let counter = overrides.counter;
    if (counter === undefined) {
      this.counter += 1;
      counter = this.counter;
    }
    const clientDataJSON = clientData("webauthn.get", overrides.challenge ?? options.challenge, origin);
    const authenticatorData = await this.authenticatorDataHead(
      overrides.rpId ?? options.rpId ?? new URL(origin).hostname,
      { userVerified: overrides.userVerified, counter, attested: false },
    );
    const signed = concat(authenticatorData, await sha256(clientDataJSON));
    const rawSignature = await crypto.subtle.sign(ES256_SIGNATURE, this.keys.privateKey, signed);
    const userHandle = overrides.userHandle === undefined ? this.userHandle : overrides.userHandle;
    const credentialId = overrides.credentialId ?? this.credentialId;
    return {
      id: credentialId,
      rawId: credentialId,
      response: {
        clientDataJSON: encodeBase64urlNoPadding(clientDataJSON),
        authenticatorData: encodeBase64urlNoPadding(authenticatorData),
        signature: encodeBase64urlNoPadding(derSignature(new Uint8Array(rawSignature))),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
      type: "public-key",
    };
  }

  /** SHA-256(rpId), flags, counter: the part of authenticator data both ceremonies share. */
  private async authenticatorDataHead(
    rpId: string,
    { userVerified, counter, attested }: { userVerified?: boolean; counter: number; attested: boolean },
  ): Promise<Bytes> {
    const flags =
      USER_PRESENT |
      (userVerified === false ? 0 : USER_VERIFIED) |
      this.backupFlags |
      (attested ? ATTESTED_CREDENTIAL_DATA : 0);
    return concat(await sha256(new TextEncoder().encode(rpId)), Uint8Array.of(flags), uint32(counter));
  }
}

/** The bytes the browser signs over (by hash) and sends: key order and compact form as Chromium writes them. */
function clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Bytes {
  return new TextEncoder().encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
}

/** COSE_Key for ES256 (RFC 9053): kty EC2, alg -7, crv P-256, x, y. Integer keys, negative ones included. */
function coseEc2PublicKey(rawPublicKey: Uint8Array): Uint8Array {
  // WebCrypto's "raw" export is the uncompressed point: 0x04 || x (32 bytes) || y (32 bytes).
  return encodeCBOR(
    new Map<number, CBORType>([
      [1, 2],
      [3, ES256],
      [-1, 1],
      [-2, rawPublicKey.slice(1, 33)],
      [-3, rawPublicKey.slice(33, 65)],
    ]),
  );
}

/**
 * WebCrypto signs ECDSA as raw r || s (64 bytes); WebAuthn carries an ASN.1 DER SEQUENCE of two INTEGERs. At most
 * 2 + 2 × (2 + 33) bytes, so every length fits in one byte.
 */
function derSignature(raw: Uint8Array): Uint8Array {
  const r = derInteger(raw.subarray(0, 32));
  const s = derInteger(raw.subarray(32, 64));
  return Uint8Array.of(0x30, r.length + s.length, ...r, ...s);
}

/** A DER INTEGER is minimal and signed: strip leading zeros, then add one back when the high bit would read negative. */
function derInteger(unsigned: Uint8Array): Uint8Array {
  let start = 0;
  while (start < unsigned.length - 1 && unsigned[start] === 0) start += 1;
  const digits = unsigned.subarray(start);
  const sign = (digits[0] ?? 0) & 0x80 ? [0] : [];
  return Uint8Array.of(0x02, sign.length + digits.length, ...sign, ...digits);
}

async function sha256(bytes: Bytes): Promise<Bytes> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
}

function uint16(value: number): Uint8Array {
  const bytes = new Uint8Array(2);
  new DataView(bytes.buffer).setUint16(0, value);
  return bytes;
}

function uint32(value: number): Uint8Array {
  const bytes = new Uint8Array(4);
  new DataView(bytes.buffer).setUint32(0, value);
  return bytes;
}

function concat(...parts: Uint8Array[]): Bytes {
  const joined = new Uint8Array(parts.reduce((length, part) => length + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    joined.set(part, offset);
    offset += part.length;
  }
  return joined;
}
