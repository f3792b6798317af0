import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { parseClientList } from "~/lib/client-list";
import type { BackOfficeRole } from "~/lib/permissions";
import { PERMISSION_MESSAGES } from "~/lib/permissions";
import { NOTE_MESSAGES } from "~/lib/schemas/notes";
import { retainUntil } from "~/lib/verification";
import { deleteClientData } from "~/server/admin/deletion.server";
import { clientsPageQuery } from "~/server/admin/desk.server";
import worker from "../../workers/app";
import {
  appEnv,
  countRows,
  createUser,
  db,
  dbRefusal,
  getPage,
  insertTransaction,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";
import {
  alerts,
  buttonTexts,
  cardTitled,
  controlAttribute,
  elementsHolding,
  elementsWith,
  linkTexts,
  readText,
  refusals,
  replyToast,
  testIdTexts,
} from "../support/places";
import { rowCells } from "../support/tables";

const YEAR = 365 * 24 * 60 * 60 * 1000;

async function adminWith(roles: BackOfficeRole[]) {
  const admin = await createUser({ role: "admin", roles });
  return { ...admin, cookie: await sessionCookieFor(admin.id) };
}

/** A note written as the page's form sends it; the flags checked are the ones wanted, `shown` the ones on screen. */
function writeNote(
  admin: { cookie: string },
  clientId: string,
  body: string,
  {
    flags = [],
    shown = [],
    correctsId,
    query = "",
  }: { flags?: string[]; shown?: string[]; correctsId?: number; query?: string } = {},
) {
  const fields: Record<string, string> = { intent: "note", body, flagsShown: shown.join(",") };
  for (const flag of flags) fields[`flag_${flag}`] = "on";
  if (correctsId !== undefined) fields.correctsId = String(correctsId);
  return postForm(`/user/${clientId}${query}`, fields, { cookie: admin.cookie });
}

const flagsOf = async (userId: string) =>
  (
    await env.DB.prepare("SELECT flag FROM client_flags WHERE user_id = ? ORDER BY flag").bind(userId).all<{
      flag: string;
    }>()
  ).results.map((r) => r.flag);

/** The notes the client page lists, each as its item's text (author, time, body, flags), in the list's order. */
const notesShown = (html: string) => elementsHolding(html, "li", 'id="note-');

const noteIds = async (userId: string) =>
  (
    await env.DB.prepare("SELECT id FROM client_notes WHERE user_id = ? ORDER BY id").bind(userId).all<{ id: number }>()
  ).results.map((r) => r.id);

describe("writing a note", () => {
  it("is for support, compliance and owners: a note, its flags and an audit row, shown newest first with its author", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser({ firstName: "Noted" });
    const first = await writeNote(support, client.id, "Called about a late deposit.\nAsked to wait.", {
      flags: ["watch"],
    });
    expect(first.status).toBe(200);
    expect(await replyToast(await first.text())).toEqual({ type: "success", text: NOTE_MESSAGES.added });
    await writeNote(support, client.id, "Second note.");
    expect(await flagsOf(client.id)).toEqual(["watch"]);
    expect(await countRows("audit_log", "action = 'client.note' AND target = ?", `user:${client.id}`)).toBe(2);

    const html = await (await getPage(`/user/${client.id}`, support.cookie)).text();
    const notes = notesShown(html);
    expect(notes).toHaveLength(2);
    expect(notes[0]).toContain("Second note.");
    expect(notes[1]).toContain("Called about a late deposit.");
    for (const note of notes) expect(note).toContain(support.email);
    expect(testIdTexts(html, "client-flag")).toContain("Watch");
  });

  it("is refused with 403 and writes nothing for a role without writeNotes", async () => {
    const client = await createUser();
    for (const roles of [["operator"], ["approver"]] as const) {
      const admin = await adminWith([...roles]);
      const response = await writeNote(admin, client.id, "Should not be kept", { flags: ["vip"] });
      expect(response.status).toBe(403);
      expect(alerts(await response.text())).toContain(PERMISSION_MESSAGES.forbidden);
      // They still read the notes, without the form.
      const html = await (await getPage(`/user/${client.id}`, admin.cookie)).text();
      expect(cardTitled(html, "Notes")).toContain("No notes yet.");
      expect(controlAttribute(html, "body", "name")).toBeNull();
      expect(buttonTexts(html)).not.toContain("Add note");
    }
    expect(await countRows("client_notes", "user_id = ?", client.id)).toBe(0);
    expect(await flagsOf(client.id)).toEqual([]);
    expect(await countRows("audit_log", "action = 'client.note' AND target = ?", `user:${client.id}`)).toBe(0);
  });

  it("refuses a blank, over-long or odd note with a clear message and writes nothing", async () => {
    const owner = await adminWith(["owner"]);
    const client = await createUser();
    const cases: Array<[string, string]> = [
      ["   ", NOTE_MESSAGES.bodyRequired],
      ["x".repeat(2001), NOTE_MESSAGES.tooLong],
      ["client\u200b@example.com", NOTE_MESSAGES.forbiddenCharacters],
      ["bell\u0007", NOTE_MESSAGES.forbiddenCharacters],
    ];
    for (const [body, message] of cases) {
      const response = await writeNote(owner, client.id, body);
      expect(response.status).toBe(400);
      expect(refusals(await response.text())).toContain(message);
    }
    expect(await countRows("client_notes", "user_id = ?", client.id)).toBe(0);
    // Line breaks are the one control character a note keeps, as one line feed each.
    expect((await writeNote(owner, client.id, "one\r\ntwo")).status).toBe(200);
    const row = await env.DB.prepare("SELECT body FROM client_notes WHERE user_id = ?").bind(client.id).first();
    expect(row).toEqual({ body: "one\ntwo" });
  });
});

describe("paging", () => {
  it("shows the newest 50, then the older ones a page further, with the way back", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser();
    const insert = env.DB.prepare("INSERT INTO client_notes (user_id, author_id, body) VALUES (?, ?, ?)");
    await env.DB.batch(
      Array.from({ length: 52 }, (_, i) => insert.bind(client.id, support.id, `Paged note number ${i + 1}.`)),
    );
    const ids = await noteIds(client.id);
    const newest = await (await getPage(`/user/${client.id}`, support.cookie)).text();
    const newestNotes = notesShown(newest);
    expect(newestNotes).toHaveLength(50);
    expect(newestNotes[0]).toContain("Paged note number 52.");
    expect(newestNotes.at(-1)).toContain("Paged note number 3.");
    expect(linkTexts(newest)).not.toContain("Newest notes");
    // The older page starts after the last note shown (the third oldest).
    const older = /href="([^"]*notesBefore=(\d+)[^"]*)"[^>]*>Older notes</.exec(newest);
    expect(Number(older?.[2])).toBe(ids[2]);

    const page2 = await (await getPage(`/user/${client.id}?notesBefore=${older?.[2]}`, support.cookie)).text();
    const olderNotes = notesShown(page2);
    expect(olderNotes).toHaveLength(2);
    expect(olderNotes[0]).toContain("Paged note number 2.");
    expect(olderNotes[1]).toContain("Paged note number 1.");
    expect(linkTexts(page2)).toContain("Newest notes");
    expect(linkTexts(page2)).not.toContain("Older notes");
    // A value that is not a note's id reads as the newest page.
    const odd = await (await getPage(`/user/${client.id}?notesBefore=x`, support.cookie)).text();
    expect(notesShown(odd)[0]).toContain("Paged note number 52.");
  });
});

describe("corrections", () => {
  it("point to a note of the same client: shown both ways", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser();
    await writeNote(support, client.id, "Client asked for a call on Monday.");
    const [original] = await noteIds(client.id);
    const response = await writeNote(support, client.id, "It was Tuesday, not Monday.", { correctsId: original });
    expect(response.status).toBe(200);
    const html = await (await getPage(`/user/${client.id}`, support.cookie)).text();
    const links = elementsWith(html, "href", `#note-${original}`).map(readText);
    expect(links).toEqual([expect.stringMatching(/^Corrects note of [A-Z][a-z]{2} \d{1,2}, \d{4}/)]);
    expect(readText(elementsWith(html, "id", `note-${original}`)[0] ?? "")).toContain("Corrected");
  });

  it("leave correction mode once saved: back to the page without ?correct=, the rest of its address kept", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser();
    await writeNote(support, client.id, "Prefers e-mail.");
    const [original] = await noteIds(client.id);
    const query = `?type=deposit&correct=${original}`;
    const refused = await writeNote(support, client.id, "", { correctsId: original, query });
    expect(refused.status).toBe(400); // a refused correction keeps the form, still correcting
    const saved = await writeNote(support, client.id, "Prefers phone calls.", { correctsId: original, query });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("Location")).toBe(`/user/${client.id}?type=deposit`);
    expect(saved.headers.get("Set-Cookie")).toMatch(/toast=/);
    expect(await noteIds(client.id)).toHaveLength(2);
    const html = await (await getPage(`/user/${client.id}?type=deposit`, support.cookie)).text();
    expect(cardTitled(html, "Notes")).not.toContain("Correcting the note of");
    expect(buttonTexts(html)).toContain("Add note");
  });

  it("are refused for another client's note or an unknown one, by the command and by the database", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser();
    const other = await createUser();
    await writeNote(support, other.id, "About someone else.");
    const [othersNote] = await noteIds(other.id);
    for (const correctsId of [othersNote as number, 999_999_999]) {
      const response = await writeNote(support, client.id, "Correction", { correctsId });
      expect(response.status).toBe(400);
      expect(refusals(await response.text())).toContain(NOTE_MESSAGES.unknownCorrection);
    }
    expect(await countRows("client_notes", "user_id = ?", client.id)).toBe(0);
    expect(await countRows("audit_log", "action = 'client.note' AND target = ?", `user:${client.id}`)).toBe(0);
    expect(
      await dbRefusal(
        env.DB.prepare("INSERT INTO client_notes (user_id, author_id, body, corrects_id) VALUES (?, ?, 'x', ?)")
          .bind(client.id, support.id, othersNote)
          .run(),
      ),
    ).toMatch(/a correction points to a note of the same client/);
  });
});

describe("append-only", () => {
  it("the database refuses to change or delete a note", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser();
    await writeNote(support, client.id, "Original text");
    const [id] = await noteIds(client.id);
    expect(
      await dbRefusal(env.DB.prepare("UPDATE client_notes SET body = 'rewritten' WHERE id = ?").bind(id).run()),
    ).toMatch(/append-only/);
    expect(
      await dbRefusal(
        env.DB.prepare("UPDATE client_notes SET retain_until = 1, body = 'rewritten' WHERE id = ?").bind(id).run(),
      ),
    ).toMatch(/append-only/);
    expect(await dbRefusal(env.DB.prepare("DELETE FROM client_notes WHERE id = ?").bind(id).run())).toMatch(
      /append-only/,
    );
    expect(await env.DB.prepare("SELECT body FROM client_notes WHERE id = ?").bind(id).first()).toEqual({
      body: "Original text",
    });
  });
});

describe("the flags projection", () => {
  it("is what the latest notes leave: set, kept by unrelated notes, cleared, and a change made meanwhile survives", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser();
    await writeNote(support, client.id, "Big client", { flags: ["vip"] });
    await writeNote(support, client.id, "Keep an eye", { flags: ["vip", "watch"], shown: ["vip"] });
    expect(await flagsOf(client.id)).toEqual(["vip", "watch"]);
    await writeNote(support, client.id, "Nothing about flags", { flags: ["vip", "watch"], shown: ["vip", "watch"] });
    expect(await flagsOf(client.id)).toEqual(["vip", "watch"]);
    await writeNote(support, client.id, "All good now", { flags: ["vip"], shown: ["vip", "watch"] });
    expect(await flagsOf(client.id)).toEqual(["vip"]);
    // A page opened before that last note still showed Watch unset: its note leaves VIP alone.
    await writeNote(support, client.id, "Asked not to be called", { flags: ["do_not_contact"], shown: [] });
    expect(await flagsOf(client.id)).toEqual(["do_not_contact", "vip"]);
    expect(
      await dbRefusal(
        env.DB.prepare("INSERT INTO client_notes (user_id, author_id, body, flags_added) VALUES (?, ?, 'x', ?)")
          .bind(client.id, support.id, '["gold"]')
          .run(),
      ),
    ).toMatch(/only known flags/);
  });
});

describe("User Management's flag filter", () => {
  it("lists only the flagged clients, shows their badges, and names a bad value", async () => {
    const support = await adminWith(["support"]);
    const tag = `flagged-${crypto.randomUUID().slice(0, 8)}`;
    const watched = await createUser({ email: `${tag}-a@example.com`, firstName: "Watched" });
    const plain = await createUser({ email: `${tag}-b@example.com`, firstName: "Plain" });
    await writeNote(support, watched.id, "Odd login pattern", { flags: ["watch"] });
    await writeNote(support, plain.id, "Just a note");
    const query = { ...parseClientList(new URLSearchParams(`q=${tag}&flag=watch`)).query };
    const rows = await clientsPageQuery(db, query, 50, appEnv.VERIFICATION_INTRODUCED_AT);
    expect(rows.map((r) => r.id)).toEqual([watched.id]);

    const html = await (await getPage(`/admin?q=${tag}&flag=watch`, support.cookie)).text();
    expect(rowCells(html, watched.email)?.[0]).toContain("Watched");
    expect(rowCells(html, plain.email)).toBeNull();
    expect(testIdTexts(html, "client-flag")).toEqual(["Watch"]);
    const bad = await (await getPage(`/admin?q=${tag}&flag=gold`, support.cookie)).text();
    expect(alerts(bad)).toContain("Unknown flag filter: use watch, vip, do_not_contact.");
    expect(rowCells(bad, plain.email)).not.toBeNull();
  });
});

describe("invisible to the client", () => {
  it("no page, data request or CSV of the client carries a note's text or flag", async () => {
    const support = await adminWith(["support"]);
    const client = await createUser();
    await insertTransaction(client.id, { status: "approved" });
    const secret = `Secret remark ${crypto.randomUUID()}`;
    await writeNote(support, client.id, secret, { flags: ["do_not_contact"] });
    const cookie = await sessionCookieFor(client.id);
    const month = new Date().toISOString().slice(0, 7);
    for (const path of [
      "/dashboard",
      "/dashboard.data",
      "/dashboard/activity",
      "/transactions",
      "/transactions.data",
      "/transactions.csv",
      "/statements",
      `/statements/${month}`,
      `/statements/${month}.csv`,
      "/account",
      "/account.data",
      "/account/verification",
      "/deposit",
      "/withdraw",
      `/user/${client.id}`,
    ]) {
      const response = await getPage(path, cookie);
      const text = await response.text();
      // Notes are the back office's alone: their words reach no response of the client's, data and CSV included.
      expect(text, path).not.toContain(secret);
      expect(text, path).not.toContain("Do not contact");
    }
  });
});

describe("retention", () => {
  it("deleting a client's data keeps their notes until the evidence's retain_until, then the cron purges them", async () => {
    const support = await adminWith(["support"]);
    const owner = await adminWith(["owner"]);
    const client = await createUser();
    await writeNote(support, client.id, "Kept as evidence", { flags: ["watch"] });
    const now = Date.now();
    expect(await deleteClientData(db, { id: owner.id, email: owner.email }, client.id, now)).toEqual({ ok: true });
    expect(
      await env.DB.prepare("SELECT body, retain_until FROM client_notes WHERE user_id = ?").bind(client.id).first(),
    ).toEqual({ body: "Kept as evidence", retain_until: retainUntil(now) });
    // The client's flags go with their record; the kept note cannot be deleted before its time.
    expect(await flagsOf(client.id)).toEqual([]);
    expect(await dbRefusal(env.DB.prepare("DELETE FROM client_notes WHERE user_id = ?").bind(client.id).run())).toMatch(
      /kept until their retain_until/,
    );
    // Back after a new sign-in, the client starts with no notes on their page.
    await env.DB.prepare(
      "INSERT INTO profiles (user_id, email, first_name, last_name, role) VALUES (?, ?, 'Back', 'Again', 'user')",
    )
      .bind(client.id, client.email)
      .run();
    const notes = cardTitled(await (await getPage(`/user/${client.id}`, owner.cookie)).text(), "Notes");
    expect(notes).toContain("No notes yet.");
    expect(notes).not.toContain("Kept as evidence");
  });

  it("the cron purges a deleted client's notes once their retain_until has passed, audited, and keeps the others", async () => {
    const support = await adminWith(["support"]);
    const owner = await adminWith(["owner"]);
    const long = await createUser();
    const recent = await createUser();
    await writeNote(support, long.id, "From long ago");
    await writeNote(support, long.id, "Its correction", { correctsId: (await noteIds(long.id))[0] });
    await writeNote(support, recent.id, "Recent");
    const actor = { id: owner.id, email: owner.email };
    await deleteClientData(db, actor, long.id, Date.now() - 6 * YEAR);
    await deleteClientData(db, actor, recent.id, Date.now());

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ cron: "* * * * *", scheduledTime: Date.now() }), env, ctx);
    await waitOnExecutionContext(ctx);

    expect(await countRows("client_notes", "user_id = ?", long.id)).toBe(0);
    expect(await countRows("client_notes", "user_id = ?", recent.id)).toBe(1);
    const audit = await env.DB.prepare(
      "SELECT actor_id, detail FROM audit_log WHERE action = 'client.notes_purge' AND target = ?",
    )
      .bind(`user:${long.id}`)
      .first<{ actor_id: string; detail: string }>();
    expect(audit?.actor_id).toBe("cron");
    expect(JSON.parse(audit?.detail ?? "{}")).toMatchObject({ purged: 2 });
  });
});
