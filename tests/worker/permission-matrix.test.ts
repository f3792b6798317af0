import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BACK_OFFICE_ROLES, type BackOfficeRole, may, PERMISSION_MESSAGES, type Permission } from "~/lib/permissions";
import { STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import { ACTS, matrixSetting, PAGES } from "../support/back-office-acts";
import { createUser, ensureDepositWallets, getPage, ORIGIN, postForm, sessionCookieFor } from "../support/fixtures";
import { errorShown, formReply, REFUSED } from "../support/places";

/**
 * Who may open and do what in the back office: every role alone, a client and a visitor, against every back-office
 * page (its document and its single-fetch `.data`), download, document, form intent and the desk's live feed. One
 * row per act: a new page adds its rows here. Allowed means anything but 403; refused means 403, the one message
 * and nothing written. The rows are in tests/support/back-office-acts.ts.
 */
type Who = BackOfficeRole | "client" | "visitor";
const EVERYONE: Who[] = [...BACK_OFFICE_ROLES, "client", "visitor"];

const cookies = new Map<Who, string>();
/** The same roles, each signed in with a recovery code instead of the authenticator's. */
const recoveryCookies = new Map<BackOfficeRole, string>();

beforeAll(async () => {
  const wallets = await ensureDepositWallets();
  matrixSetting.walletId = wallets[0]?.id ?? 0;
  matrixSetting.owner = await createUser({ role: "admin", roles: ["owner"] });
  for (const role of BACK_OFFICE_ROLES) {
    const admin = await createUser({ role: "admin", roles: [role] });
    cookies.set(role, await sessionCookieFor(admin.id));
    recoveryCookies.set(role, await sessionCookieFor(admin.id, Date.now(), { secondFactorMethod: "recovery_code" }));
  }
  const client = await createUser();
  cookies.set("client", await sessionCookieFor(client.id));
});

const mayDo = (who: Who, permissions: Permission[]) =>
  who !== "client" && who !== "visitor" && permissions.every((permission) => may([who], permission));

/**
 * What a refused request must leave as it was: every table a back-office act writes. The outbox by what was queued
 * (not its delivery status: an allowed act's mail is still being delivered in the background meanwhile).
 */
async function fingerprint(): Promise<string> {
  const reads = [
    "SELECT count(*) AS n, '' AS v FROM audit_log",
    "SELECT count(*) AS n, group_concat(id || status || coalesce(decided_by, '')) AS v FROM transactions",
    "SELECT count(*) AS n, group_concat(id || status) AS v FROM proposals",
    "SELECT count(*) AS n, group_concat(user_id || status) AS v FROM profiles",
    "SELECT count(*) AS n, group_concat(id || status) AS v FROM verification_cases",
    "SELECT count(*) AS n, group_concat(id || template || to_address) AS v FROM email_outbox",
    "SELECT count(*) AS n, group_concat(wallet_address) AS v FROM deposit_wallets",
    "SELECT count(*) AS n, '' AS v FROM sessions",
    "SELECT count(*) AS n, group_concat(id || expires_at || coalesce(accepted_at, '')) AS v FROM admin_invitations",
    "SELECT count(*) AS n, group_concat(user_id || role) AS v FROM admin_roles",
    "SELECT count(*) AS n, group_concat(id || status) AS v FROM monitoring_alerts",
    "SELECT count(*) AS n, group_concat(user_id || flag) AS v FROM client_flags",
    "SELECT count(*) AS n, group_concat(id || status) AS v FROM access_recovery_requests",
    "SELECT count(*) AS n, group_concat(user_id) AS v FROM two_factor",
    "SELECT count(*) AS n, group_concat(id || status || open_shares_e4) AS v FROM positions",
    "SELECT count(*) AS n, '' AS v FROM stock_sales",
  ];
  const rows = await Promise.all(reads.map((read) => env.DB.prepare(read).first<{ n: number; v: string | null }>()));
  return JSON.stringify(rows);
}

/**
 * What a form was answered, in its place: the error page's sentence in the route's place (an act refused before it
 * ran), else the route's reply to the form, which its banner or step-up field shows. Read from the reply, not the
 * banner: a refused act's form may not be on the page that answers (the wallets panel of a role that may not
 * propose them, a team row of a person the matrix made up), and the reply is then all it holds.
 */
async function answer(text: string): Promise<{ message: string | null; field: string | null }> {
  const shown = errorShown(text);
  if (shown?.title === REFUSED) return { message: shown.text, field: null };
  const reply = await formReply(text);
  return { message: reply?.message ?? null, field: reply?.field ?? null };
}

/** Where a visitor and a client are sent instead: sign-in, and the client's own dashboard. */
function expectSentAway(response: Response, who: "client" | "visitor") {
  const location = response.headers.get("Location") ?? "";
  expect(response.status, `${who}: ${response.status}`).not.toBe(200);
  expect(location).toMatch(who === "visitor" ? /^\/login/ : /^\/dashboard/);
}

describe.each(Object.entries(PAGES))("GET %s", (_name, page) => {
  it.each(EVERYONE)("as %s", async (who) => {
    const path = await page.path();
    for (const url of page.page ? [path, `${path}.data`] : [path]) {
      const response = await getPage(url, cookies.get(who));
      const text = await response.text();
      if (who === "client" || who === "visitor") {
        if (url.endsWith(".data")) {
          // Single fetch answers a redirect as data: it names where to go, and holds nothing of the page.
          expect(text, url).toMatch(who === "visitor" ? /\/login/ : /\/dashboard/);
        } else expectSentAway(response, who);
      } else if (mayDo(who, page.permissions)) {
        expect(response.status, `${who} ${url}`).toBeLessThan(400);
      } else {
        expect(response.status, `${who} ${url}`).toBe(403);
        // A page says it in its place; a download or document answers the message alone, as plain text.
        if (page.page && !url.endsWith(".data"))
          expect(errorShown(text)).toEqual({ title: REFUSED, text: PERMISSION_MESSAGES.forbidden });
        else if (!page.page) expect(text.trim()).toBe(PERMISSION_MESSAGES.forbidden);
      }
    }
  });
});

describe.each(Object.entries(ACTS))("POST %s", (_name, act) => {
  it.each(EVERYONE)("as %s", async (who) => {
    const [path, fields] = await act.form();
    const before = await fingerprint();
    const response = await postForm(path, fields, { cookie: cookies.get(who) });
    const text = await response.text();
    if (who === "client" || who === "visitor") {
      expectSentAway(response, who);
      expect(await fingerprint()).toBe(before);
    } else if (mayDo(who, act.permissions)) {
      expect(response.status, `${who}: ${text.slice(0, 200)}`).not.toBe(403);
    } else {
      expect(response.status, `${who}: ${text.slice(0, 200)}`).toBe(403);
      expect((await answer(text)).message).toBe(PERMISSION_MESSAGES.forbidden);
      expect(await fingerprint()).toBe(before);
    }
  });
});

/**
 * The other way in: an admin signed in with a recovery code holds the same roles, so the same acts are refused, and
 * the acts that need a fresh code (the rules table's step-up acts) ask for the authenticator's, writing nothing.
 */
describe.each(Object.entries(ACTS))("POST %s, signed in with a recovery code", (_name, act) => {
  it.each(BACK_OFFICE_ROLES)("as %s", async (role) => {
    const [path, fields] = await act.form();
    const before = await fingerprint();
    const response = await postForm(path, fields, { cookie: recoveryCookies.get(role) });
    const text = await response.text();
    if (!mayDo(role, act.permissions)) {
      expect(response.status, `${role}: ${text.slice(0, 200)}`).toBe(403);
      expect(await fingerprint()).toBe(before);
    } else if (act.stepUp) {
      expect(response.status, `${role}: ${text.slice(0, 200)}`).toBe(401);
      expect(await answer(text)).toEqual({ message: STEP_UP_MESSAGES.afterRecoveryCode, field: STEP_UP_FIELD });
      expect(await fingerprint()).toBe(before);
    } else {
      expect(response.status, `${role}: ${text.slice(0, 200)}`).not.toBe(403);
      const { message, field } = await answer(text);
      expect(message).not.toBe(STEP_UP_MESSAGES.afterRecoveryCode);
      expect(field).not.toBe(STEP_UP_FIELD);
    }
  });
});

describe("the desk's live feed", () => {
  it.each(EVERYONE)("/ws/admin as %s", async (who) => {
    const cookie = cookies.get(who);
    const response = await exports.default.fetch(`${ORIGIN}/ws/admin`, {
      headers: { Upgrade: "websocket", Origin: ORIGIN, ...(cookie ? { Cookie: cookie } : {}) },
    });
    // Every role reads clients, so every admin listens; a client may not, a visitor is not signed in.
    const expected = who === "visitor" ? 401 : who === "client" ? 403 : mayDo(who, ["readClients"]) ? 101 : 403;
    expect(response.status).toBe(expected);
    response.webSocket?.accept();
    response.webSocket?.close();
  });
});
