/**
 * The rows of the permission matrix (tests/worker/permission-matrix.test.ts): every back-office page, download and
 * document, and every form intent, each with the permissions it needs and the data it needs set up fresh. A new
 * page or intent adds its row here.
 */
import { env } from "cloudflare:workers";
import type { Permission } from "~/lib/permissions";
import { proposeLedgerEntry } from "~/server/admin/proposals.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import { firstApprovedRecovery, waitingRecovery } from "./access-recovery";
import { createUser, db, insertTransaction } from "./fixtures";
import { buyAt } from "./orders";
import { insertCase, submittedCase } from "./verification-fixtures";
import { markVerified } from "./verification-state";

/** Set by the matrix before it runs: the owner who proposes what others decide, and a deposit wallet's id. */
export const matrixSetting = { owner: { id: "", email: "" }, walletId: 0 };

/** A client with a profile, verified, with money to cover a withdrawal. */
async function client() {
  const person = await createUser({ firstName: "Robin" });
  await markVerified(person.id);
  await insertTransaction(person.id, { transactionType: "deposit", status: "approved", amountCents: 100_000 });
  return person;
}

/** A ledger entry another admin proposed (an owner), waiting for a second approval. */
async function waitingProposal(userId: string) {
  const made = await proposeLedgerEntry(db, matrixSetting.owner, userId, {
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

/** An open invitation the matrix's owner sent, as the team page lists it; returns its address. */
async function openInvitation() {
  const email = `invited-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await env.DB.prepare(
    "INSERT INTO admin_invitations (id, email, roles, invited_by, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
  )
    .bind(crypto.randomUUID(), email, '["support"]', matrixSetting.owner.id, Date.now(), Date.now() + 3_600_000)
    .run();
  return email;
}

/** An open large-transaction alert on a client's $12,000 deposit request, as the rules write one; returns its id. */
export async function openAlert(userId?: string) {
  const clientId = userId ?? (await client()).id;
  const tx = await insertTransaction(clientId, {
    transactionType: "deposit",
    amountCents: 1_200_000,
    createdBy: clientId,
  });
  const row = await env.DB.prepare(
    "INSERT INTO monitoring_alerts (user_id, rule, trigger_transaction_id, detail) VALUES (?, 'large_transaction', ?, ?) RETURNING id",
  )
    .bind(
      clientId,
      tx,
      JSON.stringify({ transactionIds: [tx], kind: "deposit", amountCents: 1_200_000, thresholdCents: 1_000_000 }),
    )
    .first<{ id: number }>();
  return row?.id ?? 0;
}

export interface Page {
  path: () => Promise<string>;
  permissions: Permission[];
  /** A page (its `.data` too), or a download or document (no page data). */
  page: boolean;
}

export const PAGES: Record<string, Page> = {
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
  "/admin/access-recovery/{id}": {
    path: async () => `/admin/access-recovery/${await waitingRecovery()}`,
    permissions: ["restoreAccess"],
    page: true,
  },
  "/admin/access-recovery/files/{id}": {
    path: async () => {
      const id = await waitingRecovery();
      const file = await env.DB.prepare("SELECT id FROM access_recovery_files WHERE request_id = ?")
        .bind(id)
        .first<{ id: string }>();
      return `/admin/access-recovery/files/${file?.id}`;
    },
    permissions: ["restoreAccess"],
    page: false,
  },
  "/admin/audit": { path: async () => "/admin/audit", permissions: ["readAuditLog"], page: true },
  "/admin/mail": { path: async () => "/admin/mail", permissions: ["manageMail"], page: true },
  "/admin/team": { path: async () => "/admin/team", permissions: ["manageTeam"], page: true },
  "/admin/alerts": { path: async () => "/admin/alerts", permissions: ["reviewAlerts"], page: true },
  "/admin/chain-payments": {
    path: async () => "/admin/chain-payments",
    permissions: ["readChainPayments"],
    page: true,
  },
  "/admin/alerts.csv": {
    path: async () => "/admin/alerts.csv?from=2026-01-01&to=2026-12-31",
    permissions: ["reviewAlerts", "exportData"],
    page: false,
  },
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

export interface Act {
  /** The page's path and the form's fields, set up fresh for each request (an allowed one may use them up). */
  form: () => Promise<[string, Record<string, string>]>;
  permissions: Permission[];
  /** A step-up act (`freshCode` of its row in the acts table, app/lib/acts.ts): it asks for a fresh authenticator code. */
  stepUp?: true;
}

export const ACTS: Record<string, Act> = {
  "/admin wallets": {
    stepUp: true,
    form: async () => [
      "/admin",
      { intent: "wallets", [`wallet-${matrixSetting.walletId}`]: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" },
    ],
    permissions: ["proposeWallets"],
  },
  "/admin approveProposal": {
    stepUp: true,
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
    stepUp: true,
    form: async () => ["/admin", { intent: "delete", userId: (await client()).id }],
    permissions: ["deleteClients"],
  },
  "/user/{id} closePosition": {
    stepUp: true,
    form: async () => {
      const person = await client();
      const position = await buyAt(person, "AAPL", 10_000, 190.02, Date.now() - 60_000);
      const fields = { positionId: String(position.id), idempotencyKey: crypto.randomUUID(), reason: "Margin call" };
      return [`/user/${person.id}`, { intent: "closePosition", ...fields }];
    },
    permissions: ["closePositions"],
  },
  "/user/{id} approve (deposit)": {
    stepUp: true,
    form: async () => {
      const { id } = await client();
      const transactionId = await insertTransaction(id, { transactionType: "deposit", amountCents: 5_000 });
      return [`/user/${id}`, { intent: "approve", transactionId: String(transactionId) }];
    },
    permissions: ["decideDeposits"],
  },
  "/user/{id} approve (stock deposit)": {
    stepUp: true,
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
    stepUp: true,
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
  "/user/{id} recordPayout": {
    form: async () => {
      const { id } = await client();
      const transactionId = await insertTransaction(id, {
        transactionType: "withdraw",
        status: "approved",
        amountCents: 5_000,
      });
      return [`/user/${id}`, { intent: "recordPayout", transactionId: String(transactionId), txid: "ab".repeat(32) }];
    },
    permissions: ["decideWithdrawals"],
  },
  "/user/{id} entry": {
    stepUp: true,
    form: async () => [
      `/user/${(await client()).id}`,
      { intent: "entry", type: "deposit", amount: "100", idempotencyKey: crypto.randomUUID() },
    ],
    permissions: ["postEntries"],
  },
  "/user/{id} approveProposal": {
    stepUp: true,
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
    stepUp: true,
    form: async () => {
      const kase = await submittedCase((await createUser()).id);
      return [`/admin/verifications/${kase.id}`, { intent: "approve", submittedAt: String(kase.submittedAt) }];
    },
    permissions: ["reviewVerifications"],
  },
  "/admin/access-recovery/{id} approve (first)": {
    stepUp: true,
    form: async () => [
      `/admin/access-recovery/${await waitingRecovery()}`,
      { intent: "approve", seenStatus: "submitted" },
    ],
    permissions: ["restoreAccess"],
  },
  "/admin/access-recovery/{id} approve (second)": {
    stepUp: true,
    form: async () => [
      `/admin/access-recovery/${await firstApprovedRecovery(matrixSetting.owner.id)}`,
      { intent: "approve", seenStatus: "first_approved" },
    ],
    permissions: ["restoreAccess"],
  },
  "/admin/access-recovery/{id} refuse": {
    form: async () => [
      `/admin/access-recovery/${await waitingRecovery()}`,
      { intent: "refuse", seenStatus: "submitted", reason: "The selfie does not show the document" },
    ],
    permissions: ["restoreAccess"],
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
  "/user/{id} note": {
    form: async () => [`/user/${(await client()).id}`, { intent: "note", body: "Called about the wire." }],
    permissions: ["writeNotes"],
  },
  "/admin/team invite": {
    stepUp: true,
    form: async () => [
      "/admin/team",
      { intent: "invite", email: `invited-${crypto.randomUUID().slice(0, 8)}@example.com`, "role-support": "on" },
    ],
    permissions: ["manageTeam"],
  },
  "/admin/team revoke": {
    form: async () => ["/admin/team", { intent: "revoke", email: await openInvitation() }],
    permissions: ["manageTeam"],
  },
  "/admin/team roles": {
    stepUp: true,
    form: async () => ["/admin/team", { intent: "roles", userId: crypto.randomUUID(), "role-support": "on" }],
    permissions: ["manageTeam"],
  },
  "/admin/team deactivate": {
    form: async () => ["/admin/team", { intent: "deactivate", userId: crypto.randomUUID() }],
    permissions: ["manageTeam"],
  },
  "/admin/team reactivate": {
    stepUp: true,
    form: async () => ["/admin/team", { intent: "reactivate", userId: crypto.randomUUID() }],
    permissions: ["manageTeam"],
  },
  "/admin/team proposeOwner": {
    form: async () => ["/admin/team", { intent: "proposeOwner", userId: crypto.randomUUID() }],
    permissions: ["manageTeam"],
  },
  "/admin/team proposeReset": {
    form: async () => ["/admin/team", { intent: "proposeReset", userId: crypto.randomUUID() }],
    permissions: ["manageTeam"],
  },
  "/admin/team approve": {
    stepUp: true,
    form: async () => ["/admin/team", { intent: "approve", proposalId: "999999" }],
    permissions: ["manageTeam"],
  },
  "/admin/team reject": {
    form: async () => ["/admin/team", { intent: "reject", proposalId: "999999" }],
    permissions: ["manageTeam"],
  },
  // Dispositions move no money and are decided once: no step-up.
  "/admin/alerts dismiss": {
    form: async () => ["/admin/alerts", { intent: "dismiss", alertId: String(await openAlert()), reason: "Payroll" }],
    permissions: ["reviewAlerts"],
  },
  "/admin/alerts escalate": {
    form: async () => ["/admin/alerts", { intent: "escalate", alertId: String(await openAlert()), note: "Ask why" }],
    permissions: ["reviewAlerts"],
  },
  "/admin/alerts report": {
    form: async () => ["/admin/alerts", { intent: "report", alertId: String(await openAlert()), reference: "SAR-1" }],
    permissions: ["reviewAlerts"],
  },
  "/admin/mail resend": {
    form: async () => ["/admin/mail", { intent: "resend", id: String(await failedNotice()) }],
    permissions: ["manageMail"],
  },
};
