/**
 * Every back-office act and every client money act, one row each (docs/product.md, "Acts"): who may do it (a
 * permission of app/lib/permissions.ts, or `client` for a client's own account), whether it needs a fresh second
 * factor (`always`; `withTwoFactor` for a client, who may have no code to give; `never`), whether a second admin
 * must approve it (`always`, `fromThreshold` at or above FOUR_EYES_THRESHOLD, `never`), and what in the database
 * checks it again whatever the code does (the triggers of db/guards.sql, or the statement that writes it).
 *
 * One runner (app/server/acts.server.ts) asks the first three in that order for every form intent that does an act;
 * the fourth is the act's own statement. A new act is a row here and a body there.
 *
 * Browser-safe: pages read it to say what an act will ask for.
 */
import type { Permission } from "./permissions";

export interface ActRow {
  who: Permission | "client";
  freshCode: "always" | "withTwoFactor" | "never";
  secondAdmin: "always" | "fromThreshold" | "never";
  /** Triggers of db/guards.sql that refuse the act whatever the code does (a test checks each exists). */
  triggers: readonly string[];
  /** The statement's own condition, when the act is checked again there rather than (or besides) by a trigger. */
  statement?: string;
}

const DEPOSIT_DECIDED = ["transactions_deposit_decided_by_role", "transactions_pending_only_decides"] as const;
const WITHDRAWAL_DECIDED = ["transactions_withdrawal_decided_by_role", "transactions_pending_only_decides"] as const;

export const ACTS = {
  /* ------------------------------------------------ a client's requests, on /user/{id} */
  // Approving a deposit or stock deposit credits money the client may then take out.
  depositApproval: {
    who: "decideDeposits",
    freshCode: "always",
    secondAdmin: "fromThreshold",
    triggers: [...DEPOSIT_DECIDED, "proposals_deposit_approval_proposed_by_role"],
    statement: "the decision's UPDATE names the pending status and the admin's approval limits",
  },
  depositRejection: { who: "decideDeposits", freshCode: "never", secondAdmin: "never", triggers: DEPOSIT_DECIDED },
  withdrawalApproval: {
    who: "decideWithdrawals",
    freshCode: "always",
    secondAdmin: "fromThreshold",
    triggers: [
      ...WITHDRAWAL_DECIDED,
      "transactions_withdrawal_approval_requires_verification",
      "proposals_withdrawal_approval_proposed_by_role",
    ],
    statement: "the decision's UPDATE checks cover (coverSql) and the admin's approval limits",
  },
  withdrawalRejection: {
    who: "decideWithdrawals",
    freshCode: "never",
    secondAdmin: "never",
    triggers: WITHDRAWAL_DECIDED,
  },
  ledgerEntry: {
    who: "postEntries",
    freshCode: "always",
    secondAdmin: "fromThreshold",
    triggers: ["proposals_entry_proposed_by_role"],
    statement: "the entry's INSERT checks cover (coverSql) and the admin's approval limits",
  },
  // Recording the transaction that paid a withdrawal moves no money: the watcher checks it on chain before the
  // client sees it.
  payoutRecord: {
    who: "decideWithdrawals",
    freshCode: "never",
    secondAdmin: "never",
    triggers: ["chain_payouts_recorded_by_role", "chain_payouts_pay_approved_withdrawals"],
    statement: "one live payout per withdrawal (the unique index chain_payouts_withdrawal_uq)",
  },
  // Closing a client's position turns it into cash at the bid and writes its result to the ledger: a money act,
  // held for a second admin from the threshold on the value at that bid.
  positionClose: {
    who: "closePositions",
    freshCode: "always",
    secondAdmin: "fromThreshold",
    triggers: ["stock_sales_sold_by_role", "proposals_position_close_proposed_by_role"],
    statement: "the sale's INSERT names the position and its open shares",
  },
  clientStatusChange: { who: "changeClientStatus", freshCode: "never", secondAdmin: "never", triggers: [] },
  clientNote: { who: "writeNotes", freshCode: "never", secondAdmin: "never", triggers: ["client_notes_valid"] },
  /* ------------------------------------------------ the desk */
  // Where clients send their money: every change waits for a second admin.
  walletChange: {
    who: "proposeWallets",
    freshCode: "always",
    secondAdmin: "always",
    triggers: ["proposals_wallet_change_proposed_by_role"],
  },
  // A second admin's approval is what makes a large move or a wallet change happen.
  proposalApproval: {
    who: "decideProposals",
    freshCode: "always",
    secondAdmin: "never",
    triggers: ["proposals_decided_by_role", "proposals_second_admin_approves", "proposals_pending_only_decides"],
  },
  proposalRejection: {
    who: "decideProposals",
    freshCode: "never",
    secondAdmin: "never",
    triggers: ["proposals_decided_by_role", "proposals_pending_only_decides"],
  },
  clientDeletion: {
    who: "deleteClients",
    freshCode: "always",
    secondAdmin: "never",
    triggers: ["transactions_delete_requires_archive"],
  },
  /* ------------------------------------------------ compliance */
  // Approving an identity is what opens withdrawals to the client.
  verificationApproval: { who: "reviewVerifications", freshCode: "always", secondAdmin: "never", triggers: [] },
  verificationRejection: { who: "reviewVerifications", freshCode: "never", secondAdmin: "never", triggers: [] },
  verificationInfoRequest: { who: "reviewVerifications", freshCode: "never", secondAdmin: "never", triggers: [] },
  // Either approval can hand the account to whoever holds its password; the second removes the second factors.
  accessRecoveryApproval: {
    who: "restoreAccess",
    freshCode: "always",
    secondAdmin: "always",
    triggers: [
      "access_recovery_requests_decided_by_role",
      "access_recovery_requests_second_admin_approves",
      "access_recovery_requests_in_order",
    ],
  },
  accessRecoveryRefusal: {
    who: "restoreAccess",
    freshCode: "never",
    secondAdmin: "never",
    triggers: ["access_recovery_requests_decided_by_role", "access_recovery_requests_ended_are_immutable"],
  },
  // Dispositions move no money and are decided once.
  alertDisposition: {
    who: "reviewAlerts",
    freshCode: "never",
    secondAdmin: "never",
    triggers: ["monitoring_alerts_decided_once"],
  },
  /* ------------------------------------------------ the owners' pages */
  mailResend: { who: "manageMail", freshCode: "never", secondAdmin: "never", triggers: [] },
  // What gives an admin power over money takes a fresh code; what takes it away or only proposes does not.
  adminInvitation: {
    who: "manageTeam",
    freshCode: "always",
    secondAdmin: "never",
    triggers: ["admin_invitations_accepted_while_inviter_owns"],
  },
  invitationRevocation: { who: "manageTeam", freshCode: "never", secondAdmin: "never", triggers: [] },
  adminRolesChange: {
    who: "manageTeam",
    freshCode: "always",
    secondAdmin: "never",
    triggers: ["admin_roles_admins_only"],
  },
  adminDeactivation: { who: "manageTeam", freshCode: "never", secondAdmin: "never", triggers: [] },
  adminReactivation: { who: "manageTeam", freshCode: "always", secondAdmin: "never", triggers: [] },
  // Making an owner and resetting an admin's second factor are proposals a second owner approves.
  ownerGrant: {
    who: "manageTeam",
    freshCode: "never",
    secondAdmin: "always",
    triggers: ["team_proposals_second_owner_approves", "team_proposals_approved_while_proposer_owns"],
  },
  secondFactorReset: {
    who: "manageTeam",
    freshCode: "never",
    secondAdmin: "always",
    triggers: ["team_proposals_second_owner_approves", "team_proposals_approved_while_proposer_owns"],
  },
  teamProposalApproval: {
    who: "manageTeam",
    freshCode: "always",
    secondAdmin: "never",
    triggers: ["team_proposals_second_owner_approves", "team_proposals_decided_are_immutable"],
  },
  teamProposalRejection: {
    who: "manageTeam",
    freshCode: "never",
    secondAdmin: "never",
    triggers: ["team_proposals_decided_are_immutable"],
  },
  /* ------------------------------------------------ a client's own money */
  withdrawal: {
    who: "client",
    freshCode: "withTwoFactor",
    secondAdmin: "never",
    triggers: [],
    statement: "the request's INSERT checks cover (coverSql), the verified level and the rolling limits",
  },
  depositRequest: {
    who: "client",
    freshCode: "never",
    secondAdmin: "never",
    triggers: [],
    statement: "the request's INSERT checks the unverified deposit limit",
  },
  requestCancel: {
    who: "client",
    freshCode: "never",
    secondAdmin: "never",
    triggers: ["transactions_cancel_by_owner"],
    statement: "the UPDATE names the owner and the cancellable statuses (cancellableSql)",
  },
  // An order moves money only inside the client's own account, at the server's price: no code is asked, as no
  // broker asks one per trade; what leaves the account (a withdrawal) still needs one.
  order: {
    who: "client",
    freshCode: "never",
    secondAdmin: "never",
    triggers: ["position_closes_own_lots_while_selling", "positions_terms_are_final", "stock_sales_settled_are_final"],
    statement: "a buy's INSERT checks the order cover rule (spendCoveredSql); a sale's checks the shares held",
  },
  orderCancel: {
    who: "client",
    freshCode: "never",
    secondAdmin: "never",
    triggers: ["positions_cancel_within_window"],
    statement: "the UPDATE names the owner, the untouched position and the cancel window",
  },
} as const satisfies Record<string, ActRow>;

export type ActName = keyof typeof ACTS;

/** Whether `user` must give a fresh second factor for the act: always, or a client who has one to give. */
export function freshCodeRequired(user: { role: string; twoFactorEnabled: boolean }, act: ActName): boolean {
  const row: ActRow = ACTS[act];
  if (row.freshCode === "never") return false;
  return row.freshCode === "always" || user.role === "admin" || user.twoFactorEnabled;
}

/** The smallest amount, in cents, that a `fromThreshold` act hands to a second admin (what the forms say). */
export const secondAdminFromCents = (thresholdDollars: number) => thresholdDollars * 100;

/** Whether the act, for this amount, waits for a second admin. */
export function needsSecondAdmin(act: ActName, thresholdDollars: number, amountCents = 0): boolean {
  const row: ActRow = ACTS[act];
  if (row.secondAdmin === "never") return false;
  return row.secondAdmin === "always" || amountCents >= secondAdminFromCents(thresholdDollars);
}

/** The two acts deciding a client's request, by its type: a withdrawal is the approvers', a deposit the operators'. */
export const decisionActs = (transactionType: string) =>
  transactionType === "withdraw"
    ? ({ approve: "withdrawalApproval", reject: "withdrawalRejection" } as const)
    : ({ approve: "depositApproval", reject: "depositRejection" } as const);
