import { createExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, inject } from "vitest";
import { ACCESS_RECOVERY_MESSAGES } from "~/lib/access-recovery";
import { positionSerial } from "~/lib/money/orders";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { ADMIN_MESSAGES } from "~/lib/schemas/admin";
import { isPasskeyPrompt, isStepUpPrompt, STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import { TEAM_MESSAGES } from "~/lib/team";
import { REVIEW_MESSAGES } from "~/lib/verification-review";
import { proposeLedgerEntry } from "~/server/admin/proposals.server";
import { proposeTeamChange } from "~/server/admin/team-proposals.server";
import { firstApprovedRecovery, waitingRecovery } from "./access-recovery";
import {
  appEnv,
  countRows,
  createUser,
  db,
  ensureDepositWallets,
  insertTransaction,
  postForm,
  sessionCookieFor,
  totpCode,
} from "./fixtures";
import { buyAt } from "./orders";
import { alerts, controlAttribute, fieldDescriptions, fieldError, fieldLabel, formReply, statuses } from "./places";
import { quotesControl } from "./quotes";
import { submittedCase } from "./verification-fixtures";
import { markVerified } from "./verification-state";

/**
 * The acts behind step-up for money (docs/decisions/0019), each as a form some person posts: the step-up tests
 * run every way of signing in against every one of them.
 */

export const MINUTE = 60 * 1000;
export const newKey = () => crypto.randomUUID();

export interface Person {
  id: string;
  totpSecret: Uint8Array | null;
}

/** A signed-in browser of this person whose last code was entered `minutesAgo` (or never). */
export function cookieOf(person: Person, minutesAgo: number | "never") {
  if (minutesAgo === "never") return sessionCookieFor(person.id, Date.now(), { freshSecondFactor: false });
  return sessionCookieFor(person.id, Date.now() - minutesAgo * MINUTE);
}

export const codeOf = (person: Person, at = Date.now()) => totpCode(person.totpSecret as Uint8Array, at);

/** A verified client with two-factor sign-in on and $100 to withdraw. */
export async function fundedClient(options: { twoFactor?: boolean } = {}) {
  const client = await createUser({ twoFactor: options.twoFactor ?? true });
  await markVerified(client.id);
  await insertTransaction(client.id, { transactionType: "deposit", status: "approved", amountCents: 10_000 });
  return client;
}

export const withdrawalFields = () => ({
  amount: "25.00",
  cryptoCurrency: "ETH",
  walletAddress: "0x1111111111111111111111111111111111111111",
  idempotencyKey: newKey(),
});

/**
 * One protected action: who does it, the form it posts, what it would write (a count that must not move when it
 * is refused), and how its success reads.
 */
export interface ProtectedAction {
  actor: Person;
  path: string;
  fields: Record<string, string>;
  written: () => Promise<number>;
  succeeded: (response: Response) => Promise<void>;
  /** The Worker's settings when the act needs others (a close reads a world of the quotes simulator). */
  bindings?: typeof env;
}

/** The act's form posted with `fields` (its own, with a code or without), by the browser `cookie`. */
export const postAction = (action: ProtectedAction, fields: Record<string, string>, options: { cookie?: string }) =>
  postForm(action.path, fields, { ...options, bindings: action.bindings });

/** An admin's act went through, as the page answering it says so: its success banner (`role="status"`). */
export const adminReplySays = (message: string) => async (response: Response) => {
  expect(response.status).toBe(200);
  expect(statuses(await response.text())).toContain(message);
};

/**
 * An admin's act went through, said only in the route's reply: the page answering it shows the words nowhere (see
 * the action that uses it for why), so the reply is the one place left to read them.
 */
const adminReplyOnlySays = (message: string) => async (response: Response) => {
  expect(response.status).toBe(200);
  expect(await formReply(await response.text())).toMatchObject({ tone: "success", message });
};

/** An admin's Approve on a client's pending request of $25 (a withdrawal's client has the money to cover it). */
async function approvingRequest(request: {
  transactionType: "withdraw" | "deposit" | "stock_deposit";
  stock?: string;
}) {
  const admin = await createUser({ role: "admin" });
  const client = await fundedClient({ twoFactor: false });
  const id = await insertTransaction(client.id, { ...request, amountCents: 2_500 });
  return {
    actor: admin,
    path: `/user/${client.id}`,
    fields: { intent: "approve", transactionId: String(id) },
    written: () => countRows("transactions", "id = ? AND status <> 'pending'", id),
    succeeded: adminReplySays("Transaction approved"),
  };
}

export const ACTIONS: Record<string, () => Promise<ProtectedAction>> = {
  "a withdrawal request (and the payout address it saves)": async () => {
    const client = await fundedClient();
    return {
      actor: client,
      path: "/withdraw",
      fields: withdrawalFields(),
      // The payout address is stored with the request, in the same batch.
      written: () => countRows("transactions", "user_id = ? AND transaction_type = 'withdraw'", client.id),
      succeeded: async (response) => {
        expect(response.status).toBe(302);
        expect(response.headers.get("Location")).toBe("/dashboard");
      },
    };
  },
  "saving deposit wallets": async () => {
    const admin = await createUser({ role: "admin" });
    const wallet = (await ensureDepositWallets()).find((w) => w.walletType === "ETH");
    if (!wallet) throw new Error("no ETH wallet");
    const address = `0x${crypto.randomUUID().replaceAll("-", "").padEnd(40, "a").slice(0, 40)}`;
    // One change waits per wallet: an earlier case's proposal is closed (as the cron would) so this one can wait.
    await env.DB.prepare(
      "UPDATE proposals SET status = 'expired', decided_at = ? WHERE kind = 'wallet_change' AND status = 'pending'",
    )
      .bind(Date.now())
      .run();
    return {
      actor: admin,
      path: "/admin",
      fields: { intent: "wallets", [`wallet-${wallet.id}`]: address, [`was-${wallet.id}`]: wallet.walletAddress },
      // Saving proposes the change; a second admin makes it (tests/worker/four-eyes.test.ts).
      written: () => countRows("proposals", "kind = 'wallet_change' AND new_address = ?", address),
      succeeded: adminReplySays(PROPOSAL_MESSAGES.awaiting),
    };
  },
  "approving another admin's proposal": async () => {
    const maker = await createUser({ role: "admin" });
    const checker = await createUser({ role: "admin" });
    const client = await createUser();
    const proposed = await proposeLedgerEntry(db, { id: maker.id, email: maker.email }, client.id, {
      type: "deposit",
      amountCents: 2_000_000,
      idempotencyKey: newKey(),
      reason: "Wire received",
    });
    if (!proposed.ok) throw new Error(proposed.error);
    return {
      actor: checker,
      path: "/admin",
      fields: { intent: "approveProposal", proposalId: String(proposed.proposalId) },
      written: () => countRows("proposals", "id = ? AND status = 'approved'", proposed.proposalId),
      succeeded: adminReplySays(PROPOSAL_MESSAGES.approved),
    };
  },
  "a ledger entry": async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    return {
      actor: admin,
      path: `/user/${client.id}`,
      fields: { intent: "entry", type: "deposit", amount: "10", idempotencyKey: newKey() },
      written: () => countRows("transactions", "user_id = ?", client.id),
      succeeded: adminReplySays("Deposit of $10.00 recorded"),
    };
  },
  "closing a client's position": async () => {
    const admin = await createUser({ role: "admin" });
    const client = await fundedClient({ twoFactor: false });
    const position = await buyAt(client, "AAPL", 10_000, 90, Date.now() - MINUTE);
    const quotes = quotesControl(inject("chainSimulatorUrl"), `step-up-${newKey().slice(0, 8)}`);
    await quotes.set("AAPL", { bid: "95.00", ask: "95.04" });
    return {
      actor: admin,
      path: `/user/${client.id}`,
      fields: { intent: "closePosition", positionId: String(position.id), idempotencyKey: newKey() },
      written: () => countRows("stock_sales", "user_id = ?", client.id),
      succeeded: adminReplySays(
        `Closed ${positionSerial(position.id)}: sold 1 AAPL at $95.00 for $95.00, result +$5.00`,
      ),
      bindings: { ...env, ...quotes.vars } as typeof env,
    };
  },
  "approving a withdrawal": () => approvingRequest({ transactionType: "withdraw" }),
  "approving a deposit": () => approvingRequest({ transactionType: "deposit" }),
  "approving a stock deposit": () => approvingRequest({ transactionType: "stock_deposit", stock: "AAPL" }),
  "approving a client's identity verification": async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    const kase = await submittedCase(client.id);
    return {
      actor: admin,
      path: `/admin/verifications/${kase.id}`,
      fields: { intent: "approve", submittedAt: String(kase.submittedAt) },
      written: () => countRows("verification_cases", "id = ? AND status = 'approved'", kase.id),
      succeeded: adminReplySays(REVIEW_MESSAGES.approved),
    };
  },
  "a first approval of a client's access recovery": async () => {
    const admin = await createUser({ role: "admin", roles: ["compliance"] });
    const id = await waitingRecovery();
    return {
      actor: admin,
      path: `/admin/access-recovery/${id}`,
      fields: { intent: "approve", seenStatus: "submitted" },
      written: () => countRows("access_recovery_requests", "id = ? AND status <> 'submitted'", id),
      succeeded: adminReplySays(ACCESS_RECOVERY_MESSAGES.firstApproved),
    };
  },
  "the second approval that restores a client's access": async () => {
    const first = await createUser({ role: "admin", roles: ["compliance"] });
    const admin = await createUser({ role: "admin", roles: ["compliance"] });
    const id = await firstApprovedRecovery(first.id);
    return {
      actor: admin,
      path: `/admin/access-recovery/${id}`,
      fields: { intent: "approve", seenStatus: "first_approved" },
      written: () => countRows("access_recovery_requests", "id = ? AND status = 'approved'", id),
      succeeded: adminReplySays(ACCESS_RECOVERY_MESSAGES.approved),
    };
  },
  "deleting a client's data": async () => {
    const admin = await createUser({ role: "admin" });
    const client = await createUser();
    return {
      actor: admin,
      path: "/admin",
      fields: { intent: "delete", userId: client.id },
      written: async () => 1 - (await countRows("profiles", "user_id = ?", client.id)),
      succeeded: adminReplySays(ADMIN_MESSAGES.deleted),
    };
  },
  "inviting an admin": async () => {
    const owner = await createUser({ role: "admin" });
    const email = `invited-${newKey().slice(0, 8)}@example.com`;
    return {
      actor: owner,
      path: "/admin/team",
      fields: { intent: "invite", email, "role-approver": "on" },
      written: () => countRows("admin_invitations", "email = ?", email),
      succeeded: adminReplySays(TEAM_MESSAGES.invited(email)),
    };
  },
  "changing an admin's roles": async () => {
    const owner = await createUser({ role: "admin" });
    const member = await createUser({ role: "admin", roles: ["support"] });
    return {
      actor: owner,
      path: "/admin/team",
      fields: { intent: "roles", userId: member.id, "role-approver": "on" },
      written: () => countRows("admin_roles", "user_id = ? AND role = 'approver'", member.id),
      succeeded: adminReplySays(TEAM_MESSAGES.rolesChanged),
    };
  },
  "reactivating an admin": async () => {
    const owner = await createUser({ role: "admin" });
    const member = await createUser({ role: "admin", roles: ["approver"] });
    await env.DB.prepare("UPDATE users SET deactivated_at = ? WHERE id = ?").bind(Date.now(), member.id).run();
    return {
      actor: owner,
      path: "/admin/team",
      fields: { intent: "reactivate", userId: member.id },
      written: () => countRows("users", "id = ? AND deactivated_at IS NULL", member.id),
      succeeded: adminReplySays(TEAM_MESSAGES.reactivated),
    };
  },
  "approving another owner's proposal to make an admin an owner": async () => {
    const proposer = await createUser({ role: "admin" });
    const checker = await createUser({ role: "admin" });
    const member = await createUser({ role: "admin", roles: ["support"] });
    const context = { db, env: appEnv, bindings: env, ctx: createExecutionContext() };
    const proposed = await proposeTeamChange(context, proposer, "grant_owner", member.id);
    if (!proposed.ok) throw new Error(proposed.error);
    const proposal = await env.DB.prepare("SELECT id FROM team_proposals WHERE target_id = ?")
      .bind(member.id)
      .first<{ id: number }>();
    return {
      actor: checker,
      path: "/admin/team",
      fields: { intent: "approve", proposalId: String(proposal?.id) },
      written: () => countRows("admin_roles", "user_id = ? AND role = 'owner'", member.id),
      // The approved proposal leaves the list, and the banner under it goes with it; the team page's own banner is
      // for replies about no one row. So "Approved and done." reaches the owner in no place on the page.
      succeeded: adminReplyOnlySays(TEAM_MESSAGES.approved),
    };
  },
};

/**
 * The form asks for a second factor again, saying `message` where the person reads it (app/components/step-up.tsx):
 * - a passkey-only account: the status line above its passkey button, and no code field;
 * - otherwise the code field, labelled with the prompt, and under it nothing more for the plain prompt, the reason
 *   for a session signed in with a recovery code, or the error ('Invalid code', the lock), marked as the field's;
 * - the ledger entry alone has no code field in the page the server answers with: its panel is opened in the page
 *   (a click on an entry type) and is closed in a page freshly drawn, so the form's banner says it there.
 */
export async function expectPrompt(response: Response, message: string = STEP_UP_MESSAGES.prompt, status = 401) {
  expect(response.status).toBe(status);
  const html = await response.text();
  if (isPasskeyPrompt(message)) {
    expect(statuses(html)).toContain(message);
    expect(controlAttribute(html, STEP_UP_FIELD, "name")).toBeNull();
    return;
  }
  const label = fieldLabel(html, STEP_UP_FIELD);
  if (label === null) {
    expect(await formReply(html), "only the ledger entry asks for a code with no code field").toMatchObject({
      intent: "entry",
      field: STEP_UP_FIELD,
      message,
    });
    expect(alerts(html)).toContain(message);
    return;
  }
  expect(label).toBe(STEP_UP_MESSAGES.prompt);
  expect(fieldDescriptions(html, STEP_UP_FIELD)).toEqual(message === STEP_UP_MESSAGES.prompt ? [] : [message]);
  expect(fieldError(html, STEP_UP_FIELD)).toBe(isStepUpPrompt(message) ? null : message);
}
