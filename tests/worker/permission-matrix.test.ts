import { env, exports } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { BACK_OFFICE_ROLES, type BackOfficeRole, may, PERMISSION_MESSAGES, type Permission } from "~/lib/permissions";
import { proposeLedgerEntry } from "~/server/admin/proposals.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import {
  createUser,
  db,
  ensureDepositWallets,
  getPage,
  insertTransaction,
  ORIGIN,
  postForm,
  sessionCookieFor,
} from "../support/fixtures";
import { insertCase, submittedCase } from "../support/verification-fixtures";
import { markVerified } from "../support/verification-state";

/**
 * Who may open and do what in the back office: every role alone, a client and a visitor, against every back-office
 * page (its document and its single-fetch `.data`), download, document, form intent and the desk's live feed. One
 * row per act: a new page adds its rows here. Allowed means anything but 403; refused means 403, the one message
 * and nothing written.
 */
type Who = BackOfficeRole | "client" | "visitor";
const EVERYONE: Who[] = [...BACK_OFFICE_ROLES, "client", "visitor"];

const cookies = new Map<Who, string>();
let owner: { id: string; email: string };
let walletId = 0;

beforeAll(async () => {
  const wallets = await ensureDepositWallets();
  walletId = wallets[0]?.id ?? 0;
  owner = await createUser({ role: "admin", roles: ["owner"] });
  for (const role of BACK_OFFICE_ROLES) {
    const admin = await createUser({ role: "admin", roles: [role] });
    cookies.set(role, await sessionCookieFor(admin.id));
  }
  const client = await createUser();
  cookies.set("client", await sessionCookieFor(client.id));
});

const mayDo = (who: Who, permissions: Permission[]) =>
  who !== "client" && who !== "visitor" && permissions.every((permission) => may([who], permission));

/** What a refused request must leave as it was: every table a back-office act writes. */
async function fingerprint(): Promise<string> {
  const reads = [
    "SELECT count(*) AS n, '' AS v FROM audit_log",
    "SELECT count(*) AS n, group_concat(id || status || coalesce(decided_by, '')) AS v FROM transactions",
    "SELECT count(*) AS n, group_concat(id || status) AS v FROM proposals",
    "SELECT count(*) AS n, group_concat(user_id || status) AS v FROM profiles",
    "SELECT count(*) AS n, group_concat(id || status) AS v FROM verification_cases",
    "SELECT count(*) AS n, group_concat(id || status || attempts) AS v FROM email_outbox",
    "SELECT count(*) AS n, group_concat(wallet_address) AS v FROM deposit_wallets",
    "SELECT count(*) AS n, '' AS v FROM sessions",
  ];
  const rows = await Promise.all(reads.map((read) => env.DB.prepare(read).first<{ n: number; v: string | null }>()));
  return JSON.stringify(rows);
}

/** A client with a profile, verified, with money to cover a withdrawal. */
async function client() {
  const person = await createUser({ firstName: "Robin" });
  await markVerified(person.id);
  await insertTransaction(person.id, { transactionType: "deposit", status: "approved", amountCents: 100_000 });
  return person;
}

/** A ledger entry another admin proposed (an owner), waiting for a second approval. */
async function waitingProposal(userId: string) {
  const made = await proposeLedgerEntry(db, owner, userId, {
    type: "deposit",
    amountCents: 2_000_000,
    idempotencyKey: crypto.randomUUID(),
    reason: "Wire received",
  });
  if (!made.ok) throw new Error(made.error);
  return made.proposalId;
}

async function failedNotice() {
  const [rows] = await db.batch([
    enqueueEmail(db, { to: "someone@example.com", template: "welcome", data: { name: "Sam" } }),
  ]);
  const id = rows[0]?.id ?? 0;
  await env.DB.prepare("UPDATE email_outbox SET status = 'failed', attempts = 30, failed_at = ? WHERE id = ?")
    .bind(Date.now(), id)
    .run();
  return id;
}

interface Page {
  path: () => Promise<string>;
  permissions: Permission[];
  /** A page (its `.data` too), or a download or document (no page data). */
  page: boolean;
}

const PAGES: Record<string, Page> = {
  "/admin": { path: async () => "/admin", permissions: ["readClients"], page: true },
  "/user/{id}": { path: async () => `/user/${(await client()).id}`, permissions: ["readClients"], page: true },
  "/admin/transactions": { path: async () => "/admin/transactions", permissions: ["readClients"], page: true },
  "/admin/verifications": {
    path: async () => "/admin/verifications",
    permissions: ["reviewVerifications"],
    page: true,
  },
  "/admin/verifications/{id}": {
    path: async () => `/admin/verifications/${(await insertCase((await createUser()).id)).id}`,
    permissions: ["reviewVerifications"],
    page: true,
  },
  "/admin/audit": { path: async () => "/admin/audit", permissions: ["readAuditLog"], page: true },
  "/admin/mail": { path: async () => "/admin/mail", permissions: ["manageMail"], page: true },
  "/admin/transactions.csv": { path: async () => "/admin/transactions.csv", permissions: ["exportData"], page: false },
  "/admin/audit.csv": {
    path: async () => "/admin/audit.csv",
    permissions: ["readAuditLog", "exportData"],
    page: false,
  },
  "/user/{id}/export": {
    path: async () => `/user/${(await client()).id}/export`,
    permissions: ["exportData"],
    page: false,
  },
  "/admin/documents/{id}": {
    path: async () => {
      const person = await createUser();
      return `/admin/documents/${(await submittedCase(person.id)).front.id}`;
    },
    permissions: ["viewDocuments"],
    page: false,
  },
};

interface Act {
  /** The page's path and the form's fields, set up fresh for each request (an allowed one may use them up). */
  form: () => Promise<[string, Record<string, string>]>;
  permissions: Permission[];
}

const ACTS: Record<string, Act> = {
  "/admin wallets": {
    form: async () => [
      "/admin",
      { intent: "wallets", [`wallet-${walletId}`]: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" },
    ],
    permissions: ["proposeWallets"],
  },
  "/admin approveProposal": {
    form: async () => [
      "/admin",
      { intent: "approveProposal", proposalId: String(await waitingProposal((await client()).id)) },
    ],
    permissions: ["decideProposals"],
  },
  "/admin rejectProposal": {
    form: async () => [
      "/admin",
      { intent: "rejectProposal", proposalId: String(await waitingProposal((await client()).id)), reason: "No wire" },
    ],
    permissions: ["decideProposals"],
  },
  "/admin delete": {
    form: async () => ["/admin", { intent: "delete", userId: (await client()).id }],
    permissions: ["deleteClients"],
  },
  "/user/{id} approve (deposit)": {
    form: async () => {
      const { id } = await client();
      const transactionId = await insertTransaction(id, { transactionType: "deposit", amountCents: 5_000 });
      return [`/user/${id}`, { intent: "approve", transactionId: String(transactionId) }];
    },
    permissions: ["decideDeposits"],
  },
  "/user/{id} approve (stock deposit)": {
    form: async () => {
      const { id } = await client();
      const transactionId = await insertTransaction(id, {
        transactionType: "stock_deposit",
        amountCents: 5_000,
        stock: "AAPL",
      });
      return [`/user/${id}`, { intent: "approve", transactionId: String(transactionId) }];
    },
    permissions: ["decideDeposits"],
  },
  "/user/{id} reject (deposit)": {
    form: async () => {
      const { id } = await client();
      const transactionId = await insertTransaction(id, { transactionType: "deposit", amountCents: 5_000 });
      return [`/user/${id}`, { intent: "reject", transactionId: String(transactionId), reason: "" }];
    },
    permissions: ["decideDeposits"],
  },
  "/user/{id} approve (withdrawal)": {
    form: async () => {
      const { id } = await client();
      const transactionId = await insertTransaction(id, { transactionType: "withdraw", amountCents: 5_000 });
      return [`/user/${id}`, { intent: "approve", transactionId: String(transactionId) }];
    },
    permissions: ["decideWithdrawals"],
  },
  "/user/{id} reject (withdrawal)": {
    form: async () => {
      const { id } = await client();
      const transactionId = await insertTransaction(id, { transactionType: "withdraw", amountCents: 5_000 });
      return [`/user/${id}`, { intent: "reject", transactionId: String(transactionId), reason: "" }];
    },
    permissions: ["decideWithdrawals"],
  },
  "/user/{id} entry": {
    form: async () => [
      `/user/${(await client()).id}`,
      { intent: "entry", type: "deposit", amount: "100", idempotencyKey: crypto.randomUUID() },
    ],
    permissions: ["postEntries"],
  },
  "/user/{id} approveProposal": {
    form: async () => {
      const { id } = await client();
      return [`/user/${id}`, { intent: "approveProposal", proposalId: String(await waitingProposal(id)) }];
    },
    permissions: ["decideProposals"],
  },
  "/user/{id} rejectProposal": {
    form: async () => {
      const { id } = await client();
      return [`/user/${id}`, { intent: "rejectProposal", proposalId: String(await waitingProposal(id)), reason: "No" }];
    },
    permissions: ["decideProposals"],
  },
  "/user/{id} suspend": {
    form: async () => [`/user/${(await client()).id}`, { intent: "suspend" }],
    permissions: ["changeClientStatus"],
  },
  "/user/{id} activate": {
    form: async () => {
      const { id } = await client();
      await env.DB.prepare("UPDATE profiles SET status = 'suspended' WHERE user_id = ?").bind(id).run();
      return [`/user/${id}`, { intent: "activate" }];
    },
    permissions: ["changeClientStatus"],
  },
  "/admin/verifications/{id} approve": {
    form: async () => {
      const kase = await submittedCase((await createUser()).id);
      return [`/admin/verifications/${kase.id}`, { intent: "approve", submittedAt: String(kase.submittedAt) }];
    },
    permissions: ["reviewVerifications"],
  },
  "/admin/verifications/{id} reject": {
    form: async () => {
      const kase = await submittedCase((await createUser()).id);
      return [
        `/admin/verifications/${kase.id}`,
        { intent: "reject", submittedAt: String(kase.submittedAt), note: "Unreadable" },
      ];
    },
    permissions: ["reviewVerifications"],
  },
  "/admin/verifications/{id} request_info": {
    form: async () => {
      const kase = await submittedCase((await createUser()).id);
      return [
        `/admin/verifications/${kase.id}`,
        {
          intent: "request_info",
          submittedAt: String(kase.submittedAt),
          note: "Send the back too",
          documentKind: "identity_back",
        },
      ];
    },
    permissions: ["reviewVerifications"],
  },
  "/admin/mail resend": {
    form: async () => ["/admin/mail", { intent: "resend", id: String(await failedNotice()) }],
    permissions: ["manageMail"],
  },
};

/** Where a visitor and a client are sent instead: sign-in, and the client's own dashboard. */
function expectSentAway(response: Response, who: "client" | "visitor") {
  const location = response.headers.get("Location") ?? response.headers.get("X-Remix-Redirect") ?? "";
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
        if (!url.endsWith(".data")) expect(text).toContain(PERMISSION_MESSAGES.forbidden);
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
      expect(text).toContain(PERMISSION_MESSAGES.forbidden);
      expect(await fingerprint()).toBe(before);
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
