import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { FORM_MESSAGES } from "~/lib/forms";
import { HTTP_MESSAGES } from "~/server/http.server";
import {
  countRows,
  createUser,
  ensureDepositWallets,
  postForm,
  registrationFields,
  sessionCookieFor,
  TEST_WALLETS,
} from "../support/fixtures";
import { controlAttribute, errorShown, fieldError, REFUSED } from "../support/places";

const registration = (fields: Record<string, string> = {}) =>
  registrationFields({ email: `odd-${crypto.randomUUID().slice(0, 8)}@example.com`, ...fields });

const profileOf = (userId: string) =>
  env.DB.prepare("SELECT first_name, last_name, phone_number FROM profiles WHERE user_id = ?").bind(userId).first();

/** A form body with one name given twice, as a tampered or broken page could send it. */
const postTwice = (path: string, fields: Array<[string, string]>, cookie: string) => postForm(path, fields, { cookie });

describe("text that shows one thing and stores another", () => {
  it.each([
    ["a NUL byte", "Jam\u0000ie"],
    ["a right-to-left override", "Jamie\u202Egnp.exe"],
    ["a directional isolate", "\u2066Jamie\u2069"],
    ["a line break", "Jamie\nRivera"],
    ["an Arabic letter mark", "Jamie\u061C"],
    ["a zero-width space", "Ja\u200Bmie"],
    ["a byte order mark", "\uFEFFJamie"],
    ["a soft hyphen", "Ja\u00ADmie"],
  ])("refuses %s in a name at registration, naming the field, and creates nothing", async (_case, firstName) => {
    const users = await countRows("users");
    const response = await postForm("/register", registration({ firstName }));
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(fieldError(html, "firstName")).toBe(FORM_MESSAGES.forbiddenCharacters("First name"));
    expect(controlAttribute(html, "firstName", "aria-invalid")).toBe("true");
    expect(await countRows("users")).toBe(users);
  });

  it("refuses them in a profile update and keeps the stored name", async () => {
    const client = await createUser({ firstName: "Robin" });
    const before = await profileOf(client.id);
    const response = await postForm(
      "/account",
      { intent: "profile", firstName: "Robin", lastName: "Q\u202Eevil", phoneNumber: "" },
      { cookie: await sessionCookieFor(client.id) },
    );
    expect(fieldError(await response.text(), "lastName")).toBe(FORM_MESSAGES.forbiddenCharacters("Last name"));
    expect(await profileOf(client.id)).toEqual(before);
  });
});

describe("over-long values", () => {
  it("refuses a phone number over 40 characters with the limit, instead of saving it empty", async () => {
    const client = await createUser();
    await postForm(
      "/account",
      { intent: "profile", firstName: "Pat", lastName: "Tester", phoneNumber: "+1 555 0100" },
      { cookie: await sessionCookieFor(client.id) },
    );
    const before = await profileOf(client.id);
    const response = await postForm(
      "/account",
      { intent: "profile", firstName: "Pat", lastName: "Tester", phoneNumber: "1".repeat(41) },
      { cookie: await sessionCookieFor(client.id) },
    );
    expect(fieldError(await response.text(), "phoneNumber")).toBe(FORM_MESSAGES.tooLong("Phone number", 40));
    expect(await profileOf(client.id)).toEqual(before);
  });

  it("refuses an e-mail with an invisible character that would pass for another", async () => {
    const response = await postForm("/register", registration({ email: "client\u200b@example.com" }));
    expect(fieldError(await response.text(), "email")).toBe(FORM_MESSAGES.forbiddenCharacters("Email"));
  });

  it("keeps a phone number padded with spaces, once trimmed within the limit", async () => {
    const client = await createUser();
    const phone = `+44${" ".repeat(22)}20 7946 0000`;
    const response = await postForm(
      "/account",
      { intent: "profile", firstName: "Pat", lastName: "Tester", phoneNumber: `${phone}   ` },
      { cookie: await sessionCookieFor(client.id) },
    );
    expect(response.status).toBe(200);
    expect(await profileOf(client.id)).toMatchObject({ phone_number: phone });
  });

  it("refuses an over-long name at registration with the limit", async () => {
    const response = await postForm("/register", registration({ lastName: "x".repeat(101) }));
    expect(fieldError(await response.text(), "lastName")).toBe(FORM_MESSAGES.tooLong("Last name", 100));
  });
});

describe("a field sent twice", () => {
  it("is a bad request on a money form, and nothing is written", async () => {
    await ensureDepositWallets();
    const client = await createUser();
    const cookie = await sessionCookieFor(client.id);
    const before = await countRows("transactions", "user_id = ?", client.id);
    const response = await postTwice(
      "/deposit",
      [
        ["amount", "10"],
        ["amount", "10000"],
        ["walletType", TEST_WALLETS[0]?.walletType ?? "BTC"],
        ["idempotencyKey", crypto.randomUUID()],
      ],
      cookie,
    );
    expect(response.status).toBe(400);
    expect(errorShown(await response.text())).toEqual({ title: REFUSED, text: HTTP_MESSAGES.duplicateField });
    expect(await countRows("transactions", "user_id = ?", client.id)).toBe(before);
  });

  it("is a bad request on an account form, and nothing changes", async () => {
    const client = await createUser({ firstName: "Robin" });
    const before = await profileOf(client.id);
    const response = await postTwice(
      "/account",
      [
        ["intent", "profile"],
        ["firstName", "Robin"],
        ["firstName", "Mallory"],
        ["lastName", "Quinn"],
        ["phoneNumber", ""],
      ],
      await sessionCookieFor(client.id),
    );
    expect(response.status).toBe(400);
    expect(await profileOf(client.id)).toEqual(before);
  });
});
