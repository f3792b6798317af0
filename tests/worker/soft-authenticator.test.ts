import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from "@oslojs/encoding";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type WebAuthnCredential,
} from "@simplewebauthn/server";
import { describe, expect, it } from "vitest";
import { SoftAuthenticator } from "../support/soft-authenticator";

/**
 * The software passkey the passkey tests sign in with, checked against the library the server verifies with: its
 * honest answers are accepted, and an answer told to lie about one thing is refused for that thing.
 */

const ORIGIN = "http://localhost";
const RP_ID = "localhost";

const registrationOptions = () =>
  generateRegistrationOptions({
    rpName: "Northwind Markets",
    rpID: RP_ID,
    userID: new TextEncoder().encode("user-0001"),
    userName: "client@example.com",
    authenticatorSelection: { residentKey: "required", userVerification: "required" },
  });

const signInOptions = (credentialId: string) =>
  generateAuthenticationOptions({
    rpID: RP_ID,
    allowCredentials: [{ id: credentialId }],
    userVerification: "required",
  });

const verifyRegistration = (response: RegistrationResponseJSON, expectedChallenge: string) =>
  verifyRegistrationResponse({
    response,
    expectedChallenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    requireUserVerification: true,
  });

const verifySignIn = (
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  credential: WebAuthnCredential,
) =>
  verifyAuthenticationResponse({
    response,
    expectedChallenge,
    expectedOrigin: ORIGIN,
    expectedRPID: RP_ID,
    credential,
    requireUserVerification: true,
  });

/** A passkey registered as the server would store it, and the options of a sign-in that asks for it. */
async function registeredPasskey() {
  const passkey = await SoftAuthenticator.create();
  const options = await registrationOptions();
  const { registrationInfo } = await verifyRegistration(await passkey.register(options), options.challenge);
  if (!registrationInfo) throw new Error("the passkey's registration was not verified");
  return { passkey, credential: registrationInfo.credential, signIn: await signInOptions(passkey.credentialId) };
}

/** clientDataJSON with one byte changed that keeps it valid JSON and every field the library checks as it was. */
function withOneByteChanged(response: AuthenticationResponseJSON): AuthenticationResponseJSON {
  const text = new TextDecoder().decode(decodeBase64urlIgnorePadding(response.response.clientDataJSON));
  expect(text).toContain('"crossOrigin":false');
  const changed = text.replace('"crossOrigin"', '"crossOrigiN"');
  const clientDataJSON = encodeBase64urlNoPadding(new TextEncoder().encode(changed));
  return { ...response, response: { ...response.response, clientDataJSON } };
}

/**
 * The DER INTEGERs of an ECDSA signature, checked the strict way (minimal, non-negative): the library reads a sloppy
 * encoding too, other verifiers do not.
 */
function strictDerIntegers(signature: Uint8Array): Uint8Array[] {
  expect([signature[0], signature[1]]).toEqual([0x30, signature.length - 2]);
  const integers: Uint8Array[] = [];
  for (let at = 2; at < signature.length; ) {
    const length = signature[at + 1] ?? 0;
    const digits = signature.subarray(at + 2, at + 2 + length);
    expect(signature[at]).toBe(0x02);
    const [first = 0, second = 0] = digits;
    expect(first & 0x80, "an INTEGER with its high bit set reads negative").toBe(0);
    if (first === 0) expect(second & 0x80, "a leading zero byte only before a high bit").toBe(0x80);
    integers.push(digits);
    at += 2 + length;
  }
  return integers;
}

describe("the software passkey", () => {
  it("registers a synced passkey the library verifies", async () => {
    const passkey = await SoftAuthenticator.create();
    const options = await registrationOptions();
    const result = await verifyRegistration(await passkey.register(options), options.challenge);

    expect(result.verified).toBe(true);
    expect(result.registrationInfo).toMatchObject({
      fmt: "none",
      userVerified: true,
      credentialDeviceType: "multiDevice",
      credentialBackedUp: true,
      credential: { id: passkey.credentialId, counter: 0 },
    });
    expect(passkey.userHandle).toBe(options.user.id);
  });

  it("signs in with it, counter 1, telling whose passkey it is", async () => {
    const { passkey, credential, signIn } = await registeredPasskey();
    const response = await passkey.assert(signIn);
    const result = await verifySignIn(response, signIn.challenge, credential);

    expect(result.verified).toBe(true);
    expect(result.authenticationInfo).toMatchObject({ newCounter: 1, credentialID: passkey.credentialId });
    expect(response.response.userHandle).toBe(passkey.userHandle);
  });

  it("writes every signature in strict DER", async () => {
    const { passkey, signIn } = await registeredPasskey();
    // r and s each need the extra 0x00 half the time, so 16 signatures all but surely show both encodings.
    for (let i = 0; i < 16; i += 1) {
      const { response } = await passkey.assert(signIn);
      expect(strictDerIntegers(decodeBase64urlIgnorePadding(response.signature))).toHaveLength(2);
    }
  });

  it("is refused from another origin", async () => {
    const options = await registrationOptions();
    const elsewhere = { origin: "https://northwind-markets.example" };
    const registration = await (await SoftAuthenticator.create()).register(options, elsewhere);
    await expect(verifyRegistration(registration, options.challenge)).rejects.toThrow(/origin/);

    const { passkey, credential, signIn } = await registeredPasskey();
    const response = await passkey.assert(signIn, elsewhere);
    await expect(verifySignIn(response, signIn.challenge, credential)).rejects.toThrow(/origin/);
  });

  it("is refused for another relying party", async () => {
    const options = await registrationOptions();
    const registration = await (await SoftAuthenticator.create()).register(options, { rpId: "example.com" });
    await expect(verifyRegistration(registration, options.challenge)).rejects.toThrow(/RP ID/);

    const { passkey, credential, signIn } = await registeredPasskey();
    const response = await passkey.assert(signIn, { rpId: "example.com" });
    await expect(verifySignIn(response, signIn.challenge, credential)).rejects.toThrow(/RP ID/);
  });

  it("is refused with another challenge", async () => {
    const options = await registrationOptions();
    const stale = (await registrationOptions()).challenge;
    const registration = await (await SoftAuthenticator.create()).register(options, { challenge: stale });
    await expect(verifyRegistration(registration, options.challenge)).rejects.toThrow(/challenge/);

    const { passkey, credential, signIn } = await registeredPasskey();
    const response = await passkey.assert(signIn, { challenge: stale });
    await expect(verifySignIn(response, signIn.challenge, credential)).rejects.toThrow(/challenge/);
  });

  it("is refused without user verification when it is required", async () => {
    const options = await registrationOptions();
    const registration = await (await SoftAuthenticator.create()).register(options, { userVerified: false });
    await expect(verifyRegistration(registration, options.challenge)).rejects.toThrow(/User verification/);

    const { passkey, credential, signIn } = await registeredPasskey();
    const response = await passkey.assert(signIn, { userVerified: false });
    await expect(verifySignIn(response, signIn.challenge, credential)).rejects.toThrow(/User verification/);
  });

  it("is refused when the signature covers other data", async () => {
    const { passkey, credential, signIn } = await registeredPasskey();
    const tampered = withOneByteChanged(await passkey.assert(signIn));

    expect((await verifySignIn(tampered, signIn.challenge, credential)).verified).toBe(false);
  });

  it("is refused when another authenticator signs for its credential id", async () => {
    const { passkey, credential, signIn } = await registeredPasskey();
    const impostor = await SoftAuthenticator.create();
    const response = await impostor.assert(signIn, {
      credentialId: passkey.credentialId,
      userHandle: passkey.userHandle,
    });

    expect(response.id).toBe(passkey.credentialId);
    expect((await verifySignIn(response, signIn.challenge, credential)).verified).toBe(false);
  });
});
