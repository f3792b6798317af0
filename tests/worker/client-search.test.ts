import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { transactionReference } from "~/lib/reference";
import { updateProfile } from "~/server/accounts.server";
import { deleteClientData } from "~/server/admin/deletion.server";
import migration from "../../db/migrations/0034_substring_search_and_amount_index.sql?raw";
import { createUser, db, getPage, insertTransaction, signedInAdmin } from "../support/fixtures";

/**
 * The back office's client search as an admin uses it: User Management's search box (`/admin?q=`) and the Client
 * filter of /admin/transactions, both served by the trigram index of migration 0034 and its triggers.
 */
let admin: { id: string; email: string; cookie: string };
const people: Record<"jane" | "bob" | "mailOnly", { id: string; email: string }> = {} as never;

async function named(firstName: string, lastName: string, email: string) {
  const user = await createUser({ firstName, email });
  await updateProfile(db, user.id, { firstName, lastName, phoneNumber: "" });
  return user;
}

beforeAll(async () => {
  admin = await signedInAdmin();
  people.jane = await named("Jane", "Doe", "jd.search@example.com");
  people.bob = await named("Bob", "Stone", "bob.stone@example.com");
  people.mailOnly = await named("Carl", "Quill", "xylophone-club@mailbox.test");
});

/** The client ids User Management lists for a search, and the page. */
async function searched(q: string) {
  const response = await getPage(`/admin?q=${encodeURIComponent(q)}`, admin.cookie);
  expect(response.status, q).toBe(200);
  const page = await response.text();
  const table = page.slice(page.indexOf("User Management"));
  return { ids: [...table.matchAll(/href="\/user\/([0-9a-f-]{36})"/g)].map((m) => m[1]), page };
}

describe("User Management's search", () => {
  it("finds a client by any part of the name, in any case, and only them", async () => {
    for (const q of ["ane", "Jane Doe", "JANE D", "e do", "doe"]) {
      expect((await searched(q)).ids, q).toEqual([people.jane.id]);
    }
  });

  it("finds a client by a fragment of the e-mail", async () => {
    expect((await searched("ophone-cl")).ids).toEqual([people.mailOnly.id]);
    expect((await searched("@mailbox.TEST")).ids).toEqual([people.mailOnly.id]);
  });

  it("finds nobody for text no client holds, quotes and wildcards read as themselves", async () => {
    for (const q of ["nobody-has-this", 'ja"ne', "j%e", "ja_e", "jane  doe"]) {
      const { ids, page } = await searched(q);
      expect(ids, q).toEqual([]);
      expect(page, q).toContain("No clients found.");
    }
  });

  it("matches one or two characters at the start of the name or the e-mail only", async () => {
    expect((await searched("ja")).ids).toContain(people.jane.id);
    expect((await searched("jd")).ids).toContain(people.jane.id);
    expect((await searched("xy")).ids).toEqual([people.mailOnly.id]);
    // 'oe' is inside 'Doe' but starts neither the name nor the e-mail.
    const oe = await searched("oe");
    expect(oe.ids).not.toContain(people.jane.id);
  });

  it("follows a rename: the new name finds the client, the old one no longer does", async () => {
    const client = await named("Mirabel", "Oakhurst", "renamed.search@example.com");
    expect((await searched("Oakhurst")).ids).toEqual([client.id]);
    await updateProfile(db, client.id, { firstName: "Mirabel", lastName: "Thistlewood", phoneNumber: "" });
    expect((await searched("Oakhurst")).ids).toEqual([]);
    expect((await searched("thistlew")).ids).toEqual([client.id]);
  });

  it("follows an e-mail change and a deleted profile", async () => {
    const client = await named("Orla", "Penrose", "old-address.search@example.com");
    await env.DB.prepare("UPDATE users SET email = 'new-address.search@example.com' WHERE id = ?")
      .bind(client.id)
      .run();
    expect((await searched("old-address")).ids).toEqual([]);
    expect((await searched("new-address")).ids).toEqual([client.id]);
    expect(await deleteClientData(db, { id: admin.id, email: admin.email }, client.id)).toEqual({ ok: true });
    expect((await searched("Penrose")).ids).toEqual([]);
  });
});

describe("migration 0034", () => {
  it("fills the index for the clients who were there before it", async () => {
    const fill = migration
      .split("--> statement-breakpoint")
      .find((part) => part.includes("INSERT INTO `client_search`"));
    await env.DB.prepare("DELETE FROM client_search").run();
    expect((await searched("ane")).ids).toEqual([]);
    await env.DB.prepare(fill ?? "").run();
    expect((await searched("ane")).ids).toEqual([people.jane.id]);
    expect((await searched("ophone-cl")).ids).toEqual([people.mailOnly.id]);
  });
});

describe("the Client filter of /admin/transactions", () => {
  it("keeps the rows of the clients it names, not another's", async () => {
    const janes = await insertTransaction(people.jane.id, { amountCents: 12_300 });
    const bobs = await insertTransaction(people.bob.id, { amountCents: 45_600 });
    for (const client of ["ane d", "jd.search@", "ja"]) {
      const response = await getPage(`/admin/transactions?client=${encodeURIComponent(client)}`, admin.cookie);
      const page = await response.text();
      expect(page, client).toContain(transactionReference(janes));
      expect(page, client).not.toContain(transactionReference(bobs));
    }
  });
});
