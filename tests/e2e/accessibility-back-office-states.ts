/**
 * The sweep's back office: the demo owner, who sees every page, on a client with pending requests, the demo's
 * verification case and an access-recovery request; and an operator refused a page of compliance (403).
 */
import { createHash, randomUUID } from "node:crypto";
import type { Page } from "@playwright/test";
import { executeStatements, query, sqlValue } from "../../scripts/lib/local-d1";
import type { SweepData, SweptState } from "./accessibility-states";
import { openPhoneMenu } from "./accessibility-states";
import { clientWithRequests, operator } from "./back-office-people";
import { e2eDatabase, outOfStepUpWindow, whileBusy } from "./database";
import { DEMO_ADMIN, expect, signIn } from "./support";

const SECOND_DEMO_CLIENT_ID = "00000000-0000-4000-8000-000000000004";
const DEMO_SECOND_ADMIN_ID = "00000000-0000-4000-8000-000000000003";
const SWEEP_PAYOUT_ADDRESS = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";

/**
 * The owner signed in, past the step-up window (so Approve and Delete ask for a code and act on nothing), and the
 * records their pages need: a client with pending requests, with a verification case and an access-recovery
 * request waiting for a first approval.
 */
export async function startOwner(page: Page): Promise<SweepData> {
  const clientId = await clientWithRequests();
  const now = Date.now();
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO verification_cases (user_id, status, submitted_at, reviewed_at) VALUES (${sqlValue(clientId)}, 'approved', ${now}, ${now})`,
        `INSERT INTO access_recovery_requests (user_id, case_id, status, token_hash, created_at, submitted_at)
           SELECT user_id, id, 'submitted', 'sweep', ${now}, ${now} FROM verification_cases WHERE user_id = ${sqlValue(clientId)}`,
        // An open position to close, and an entry the second demo admin proposed, for their dialogs.
        `INSERT INTO positions (user_id, symbol, shares_e4, price_e4, quote_at, cost_cents, open_shares_e4,
           open_cost_cents, status, idempotency_key, opened_at)
         VALUES (${sqlValue(clientId)}, 'AAPL', 20000, 1900000, ${now}, 38000, 20000, 38000, 'open', 'sweep', ${now})`,
        `INSERT INTO proposals (kind, user_id, transaction_type, amount_cents, note, proposed_by, proposed_at, expires_at)
         VALUES ('ledger_entry', ${sqlValue(clientId)}, 'deposit', 2000000, 'Wire received', ${sqlValue(DEMO_SECOND_ADMIN_ID)},
                 ${now}, ${now + 3_600_000})`,
        // An approved withdrawal paid in BTC, whose payout the desk records.
        `INSERT INTO transactions (user_id, transaction_type, amount_cents, status, withdrawal_wallet_address,
                                   created_by, created_at, decided_at)
         VALUES (${sqlValue(clientId)}, 'withdraw', 1500, 'approved', ${sqlValue(SWEEP_PAYOUT_ADDRESS)},
                 ${sqlValue(clientId)}, ${now - 1_000}, ${now})`,
        `INSERT INTO withdrawal_wallets (user_id, transaction_id, wallet_address, crypto_currency, amount_cents)
         SELECT user_id, id, wallet_address, 'BTC', 1500 FROM
           (SELECT user_id, id, withdrawal_wallet_address AS wallet_address FROM transactions
            WHERE user_id = ${sqlValue(clientId)} AND transaction_type = 'withdraw' AND status = 'approved')`,
      ],
      e2eDatabase,
    ),
  );
  // An invitation to the team, its link's token known (the table keeps its SHA-256 only).
  const invitationToken = `sweep-${randomUUID()}`;
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO admin_invitations (id, email, roles, invited_by, created_at, expires_at)
         SELECT ${sqlValue(createHash("sha256").update(invitationToken).digest("hex"))},
                ${sqlValue(`invited-${randomUUID()}@example.com`)}, '["operator"]', id, ${now}, ${now + 3_600_000}
         FROM users WHERE email = ${sqlValue(DEMO_ADMIN.email)}`,
      ],
      e2eDatabase,
    ),
  );
  const [ids] = await whileBusy(() =>
    query<{ email: string; caseId: number; recoveryId: number }>(
      `SELECT (SELECT email FROM users WHERE id = ${sqlValue(clientId)}) AS email,
         (SELECT id FROM verification_cases WHERE user_id = ${sqlValue(SECOND_DEMO_CLIENT_ID)} ORDER BY id DESC LIMIT 1) AS caseId,
         (SELECT id FROM access_recovery_requests WHERE user_id = ${sqlValue(clientId)}) AS recoveryId`,
      e2eDatabase,
    ),
  );
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  await outOfStepUpWindow(page.context());
  return {
    clientId,
    clientEmail: ids?.email ?? "",
    caseId: String(ids?.caseId),
    recoveryId: String(ids?.recoveryId),
    invitationToken,
  };
}

/** On the client's page: a pending request's button (`Approve` or `Reject`), pressed. */
async function pressOnPendingRequest(page: Page, button: "Approve" | "Reject") {
  await page
    .getByRole("button", { name: new RegExp(`^${button} `) })
    .first()
    .click();
  await expect(page.getByRole("dialog")).toBeVisible();
}

export const OWNER_STATES: SweptState[] = [
  { name: "the desk", route: "admin._index.tsx", path: "/admin" },
  { name: "the desk with the phone menu open", route: "admin._index.tsx", path: "/admin", reach: openPhoneMenu },
  {
    name: "the desk's Deposit Wallets dialog",
    route: "admin._index.tsx",
    path: "/admin",
    reach: async (page) => {
      await page.getByRole("button", { name: "Update Deposit Wallets" }).click();
      await expect(page.getByRole("dialog", { name: "Deposit Wallets" })).toBeVisible();
    },
  },
  {
    name: "the desk's Delete asking for the step-up code",
    route: "admin._index.tsx",
    path: (data) => `/admin?q=${encodeURIComponent(data.clientEmail ?? "")}`,
    reach: async (page) => {
      page.once("dialog", (dialog) => dialog.accept());
      await page
        .getByRole("button", { name: /^Delete .*'s data$/ })
        .first()
        .click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  {
    name: "the desk's Reject dialog of a proposal",
    route: "admin._index.tsx",
    path: "/admin",
    reach: async (page) => {
      await page
        .getByRole("button", { name: /^Reject: / })
        .first()
        .click();
      await expect(page.getByRole("dialog")).toBeVisible();
    },
  },
  { name: "all transactions", route: "admin.transactions.tsx", path: "/admin/transactions" },
  { name: "the audit log", route: "admin.audit.tsx", path: "/admin/audit" },
  { name: "chain payments", route: "admin.chain-payments.tsx", path: "/admin/chain-payments" },
  { name: "the mail queue", route: "admin.mail.tsx", path: "/admin/mail" },
  {
    name: "the mail queue's search, with results",
    route: "admin.mail.tsx",
    path: (data) =>
      `/admin/mail?to=${encodeURIComponent(data.clientEmail ?? "")}&month=${new Date().toISOString().slice(0, 7)}`,
  },
  { name: "the team page", route: "admin.team.tsx", path: "/admin/team" },
  { name: "the alerts queue", route: "admin.alerts.tsx", path: "/admin/alerts" },
  { name: "the verification queue", route: "admin.verifications._index.tsx", path: "/admin/verifications" },
  {
    name: "a verification case",
    route: "admin.verifications.$id.tsx",
    path: (data) => `/admin/verifications/${data.caseId}`,
  },
  {
    name: "an access-recovery request",
    route: "admin.access-recovery.$id.tsx",
    path: (data) => `/admin/access-recovery/${data.recoveryId}`,
  },
  { name: "a client's page", route: "user.$id.tsx", path: (data) => `/user/${data.clientId}` },
  {
    name: "a client's page with Approve asking for the step-up code",
    route: "user.$id.tsx",
    path: (data) => `/user/${data.clientId}`,
    reach: (page) => pressOnPendingRequest(page, "Approve"),
  },
  {
    name: "a client's page with the Reject dialog",
    route: "user.$id.tsx",
    path: (data) => `/user/${data.clientId}`,
    reach: (page) => pressOnPendingRequest(page, "Reject"),
  },
  {
    name: "a client's page with a position's Close dialog",
    route: "user.$id.tsx",
    path: (data) => `/user/${data.clientId}`,
    reach: async (page) => {
      await page
        .getByRole("button", { name: /^Close position P-/ })
        .first()
        .click();
      await expect(page.getByRole("dialog", { name: /^Close position P-/ })).toBeVisible();
    },
  },
  {
    name: "a client's page with the Record payout dialog and its error",
    route: "user.$id.tsx",
    path: (data) => `/user/${data.clientId}`,
    reach: async (page) => {
      await page.getByRole("button", { name: /^Record payout of withdrawal/ }).click();
      const dialog = page.getByRole("dialog", { name: /^Record the payout of / });
      await dialog.getByLabel("Transaction id").fill("not-a-transaction");
      await dialog.getByRole("button", { name: "Record payout" }).click();
      await expect(dialog.getByText(/^Enter the transaction id/)).toBeVisible();
    },
  },
  { name: "an admin's account settings", route: "account.tsx", path: "/account" },
  {
    name: "joining the team, from a valid invitation",
    route: "team.invite.tsx",
    path: (data) => `/team/invite?token=${data.invitationToken}`,
    reach: async (page) => {
      await expect(page.getByLabel("First name")).toBeVisible();
    },
  },
];

export async function startOperator(page: Page): Promise<SweepData> {
  const person = await operator();
  await signIn(page, person.email, person.password, { totpSecret: person.totpSecret });
  await expect(page).toHaveURL(/\/admin$/);
  return {};
}

export const OPERATOR_STATES: SweptState[] = [
  { name: "a page the role may not open (403)", route: "admin.audit.tsx", path: "/admin/audit" },
];
