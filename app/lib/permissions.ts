/**
 * Who may do what in the back office, in one table (docs/product.md, "Back-office roles"). An admin holds one or
 * more roles; an act is allowed when any of them is listed for it. Every guard, loader, action, command and feed
 * asks `may`; pages hide what an admin may not do, and the server refuses it (403) whatever the page shows.
 * The database's own guards (the decision and proposal triggers) read the same lists (`rolesFor`).
 *
 * Browser-safe: pages read it to hide buttons.
 */
import { BACK_OFFICE_ROLES, type BackOfficeRole } from "../../db/enums.ts";

export { BACK_OFFICE_ROLES, type BackOfficeRole };

const EVERY_ROLE = BACK_OFFICE_ROLES;

/**
 * The role that holds every permission and manages the team (docs/product.md, "The team page"): it is never given
 * by an invitation or a role change alone, granting it takes a second owner, and the last active one keeps it.
 */
export const OWNER_ROLE = "owner" satisfies BackOfficeRole;

/**
 * The table. Owners may do everything; the other roles what their work needs:
 * - support reads clients, their transactions, notes and verification status, and writes notes: no money, no
 *   documents;
 * - operator posts ledger entries, decides deposit and stock-deposit requests, closes a client's positions, suspends
 *   and activates clients, and reads the payments seen on chain that wait;
 * - approver decides withdrawals and second-approval proposals;
 * - compliance works the identity-verification queue and its documents, the access-recovery requests and the
 *   transaction-monitoring alerts, reads
 *   the audit log and the payments seen on chain that wait, exports, and deletes a client's data.
 */
export const PERMISSIONS = {
  /** The desk, the client list and pages, the transactions list: reading, no acting. */
  readClients: EVERY_ROLE,
  writeNotes: ["support", "compliance", "owner"],
  postEntries: ["operator", "owner"],
  decideDeposits: ["operator", "owner"],
  /** Closing a client's open position at the current bid from their page (its result is a ledger entry). */
  closePositions: ["operator", "owner"],
  /**
   * The chain payments' page (/admin/chain-payments), read only: payments waiting or set aside, and those whose block
   * left the chain after they reached the ledger. For those who decide deposits, and compliance.
   */
  readChainPayments: ["operator", "compliance", "owner"],
  decideWithdrawals: ["approver", "owner"],
  decideProposals: ["approver", "owner"],
  changeClientStatus: ["operator", "owner"],
  reviewVerifications: ["compliance", "owner"],
  viewDocuments: ["compliance", "owner"],
  /** A client's request to get back in after losing every second factor: its files and both approvals. */
  restoreAccess: ["compliance", "owner"],
  readAuditLog: ["compliance", "owner"],
  /** The monitoring alerts' queue (/admin/alerts), its decisions and its CSV. */
  reviewAlerts: ["compliance", "owner"],
  exportData: ["compliance", "owner"],
  deleteClients: ["compliance", "owner"],
  proposeWallets: ["owner"],
  manageMail: ["owner"],
  manageTeam: ["owner"],
} as const satisfies Record<string, readonly BackOfficeRole[]>;

export type Permission = keyof typeof PERMISSIONS;

/** The roles that may do an act. */
export const rolesFor = (permission: Permission): readonly BackOfficeRole[] => PERMISSIONS[permission];

/** Whether an admin holding `roles` may do an act. */
export function may(roles: readonly BackOfficeRole[], permission: Permission): boolean {
  const allowed: readonly BackOfficeRole[] = PERMISSIONS[permission];
  return roles.some((role) => allowed.includes(role));
}

/** Every act an admin holding `roles` may do: what a page needs to decide which controls to show. */
export function permissionsOf(roles: readonly BackOfficeRole[]): Record<Permission, boolean> {
  return Object.fromEntries(
    (Object.keys(PERMISSIONS) as Permission[]).map((permission) => [permission, may(roles, permission)]),
  ) as Record<Permission, boolean>;
}

export const PERMISSION_MESSAGES = {
  forbidden: "Your role does not allow this.",
} as const;

/** Deciding a client's request: a withdrawal is the approvers' act, every deposit kind the operators'. */
export const decisionPermission = (transactionType: string): Permission =>
  transactionType === "withdraw" ? "decideWithdrawals" : "decideDeposits";
