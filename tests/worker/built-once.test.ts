import { env } from "cloudflare:workers";
import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { builtOnce } from "~/server/built-once.server";
import { readTogether, schema } from "~/server/db.server";
import { createUser, db, getPage, sessionCookieFor } from "../support/fixtures";

const { users, profiles } = schema;

/** A client with the profile's name, joined: a profile that is missing reads as null, as the builder reads it. */
const person = (id: string | ReturnType<typeof sql.placeholder>) =>
  db
    .select({ id: users.id, email: users.email, profile: { firstName: profiles.firstName } })
    .from(users)
    .leftJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.id, id));
const personBuiltOnce = builtOnce(() => person(sql.placeholder("id")));
const registeredSince = builtOnce((db) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(users)
    .where(sql`${users.createdAt} >= ${sql.placeholder("since")}`),
);
const firstUser = builtOnce((db) => db.query.users.findFirst({ where: eq(users.id, sql.placeholder("id")) }));

describe("a read built once", () => {
  it("answers each call for its own values, as the builder answers them, with or without the joined row", async () => {
    const jane = await createUser({ firstName: "Jane" });
    const omar = await createUser({ firstName: "Omar" });
    const [bare] = await db
      .insert(users)
      .values({
        id: crypto.randomUUID(),
        email: `bare-${crypto.randomUUID()}@example.com`,
        role: "user",
        passwordHash: "",
        createdAt: 1,
      })
      .returning({ id: users.id });
    for (const id of [jane.id, omar.id, bare?.id as string, jane.id]) {
      const expected = await person(id);
      expect(await personBuiltOnce(db, { id })).toEqual(expected);
      expect(await personBuiltOnce(db, { id }).all()).toEqual(expected);
      expect(await personBuiltOnce(db, { id }).get()).toEqual(expected[0]);
    }
    expect((await personBuiltOnce(db, { id: bare?.id as string }))[0]?.profile).toBeNull();
    // Its SQL as sent, for the query-plan tests: the builder's text, with this call's value.
    expect(personBuiltOnce(db, { id: jane.id }).toSQL()).toEqual(person(jane.id).toSQL());
    expect(await personBuiltOnce(db, { id: "nobody" }).get()).toBeUndefined();
  });

  it("answers in a batch beside other reads, and as a relational query, the same as built each time", async () => {
    const jane = await createUser({ firstName: "Jane" });
    const together = await readTogether(db, {
      jane: personBuiltOnce(db, { id: jane.id }),
      since: registeredSince(db, { since: 0 }),
      none: registeredSince(db, { since: Date.now() + 86_400_000 }),
      built: person(jane.id),
    });
    expect(together.jane).toEqual(together.built);
    expect(together.since[0]?.n).toBe(await env.DB.prepare("SELECT count(*) AS n FROM users").first("n"));
    expect(together.none[0]?.n).toBe(0);
    expect(await firstUser(db, { id: jane.id })).toEqual(
      await db.query.users.findFirst({ where: eq(users.id, jane.id) }),
    );
    expect(await firstUser(db, { id: "nobody" })).toBeUndefined();
  });

  it("signs each request in as its own session's person, taken in turn in one isolate (the session lookup)", async () => {
    const jane = await createUser({ firstName: "Jane", email: "jane.once@example.com" });
    const omar = await createUser({ firstName: "Omar", email: "omar.once@example.com" });
    const cookies = { jane: await sessionCookieFor(jane.id), omar: await sessionCookieFor(omar.id) };
    for (const who of ["jane", "omar", "omar", "jane"] as const) {
      const page = await (await getPage("/account", cookies[who])).text();
      expect(page).toContain(`${who}.once@example.com`);
      expect(page).not.toContain(`${who === "jane" ? "omar" : "jane"}.once@example.com`);
    }
    const ended = await (await getPage("/account", "session=forged")).text();
    expect(ended).not.toContain(".once@example.com");
  });

  it("refuses a call without a value its placeholders need", async () => {
    await expect(async () => await personBuiltOnce(db, {})).rejects.toThrow(/placeholder "id"/);
  });
});
