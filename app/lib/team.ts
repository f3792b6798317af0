/**
 * The team page's rules that pages and the server share (docs/product.md, "The team page"): what its forms accept,
 * how roles read, and every message it shows. Browser-safe.
 */
import { BACK_OFFICE_ROLES, type BackOfficeRole, type TeamProposalKind } from "../../db/enums";
import { formSchema, secret, text } from "./forms";
import { OWNER_ROLE } from "./permissions";
import { MESSAGES, MIN_PASSWORD_LENGTH } from "./schemas/auth";

/** An invitation link works once, for 48 hours. */
export const INVITATION_TTL_MS = 48 * 60 * 60 * 1000;

export const ROLE_LABELS: Record<BackOfficeRole, string> = {
  support: "Support",
  operator: "Operator",
  approver: "Approver",
  compliance: "Compliance",
  owner: "Owner",
};

/** What each role is for, beside its checkbox. */
export const ROLE_HINTS: Record<BackOfficeRole, string> = {
  support: "Reads clients and writes notes; no money, no documents.",
  operator: "Posts entries, decides deposits, suspends and activates clients.",
  approver: "Decides withdrawals and second approvals.",
  compliance: "Verifications and documents, audit log, exports, deletions.",
  owner: "Everything, and this page.",
};

/** Roles an owner gives directly (invitation, role change); the owner role itself takes a second owner. */
export const DIRECT_ROLES = BACK_OFFICE_ROLES.filter((role) => role !== OWNER_ROLE);

export const TEAM_PROPOSAL_LABELS: Record<TeamProposalKind, string> = {
  grant_owner: "Make owner",
  reset_two_factor: "Reset two-factor sign-in",
};

export const TEAM_MESSAGES = {
  invited: (email: string) => `Invitation sent to ${email}. The link works once, for 48 hours.`,
  invalidEmail: "Please enter a valid e-mail address.",
  noRole: "Choose at least one role.",
  unknownRole: "Choose roles from the list.",
  ownerNotInvited: "The owner role is not given by invitation: once the admin has joined, propose it on this page.",
  emailIsClient: "This e-mail belongs to a client account. A client cannot be made an admin: use another address.",
  emailIsAdmin: "This e-mail already belongs to an admin of the team.",
  invitationUnusable: "This invitation has expired or was already used. Ask an owner for a new one.",
  proposerGone:
    "The owner who proposed this is no longer an active owner: it can only be rejected. Propose it again if it still applies.",
  invitationRevoked: (email: string) => `Invitation to ${email} revoked: its link no longer works.`,
  invitationNotOpen: "This invitation is no longer open: it was accepted, revoked or has expired.",
  joined: "Welcome to the team. Set up two-factor sign-in to continue.",
  rolesChanged: "Roles updated.",
  ownerByProposal: "Making an admin an owner takes a second owner: use Propose owner, and another owner approves it.",
  rolesUnchanged: "Those are already the admin's roles: nothing was changed.",
  deactivated: "Admin deactivated: their sessions have ended and they can no longer sign in.",
  reactivated: "Admin reactivated: they can sign in again.",
  notAnAdmin: "Admin not found.",
  ownSelf: "You cannot change your own roles or deactivate yourself: ask another owner.",
  lastOwner: "This is the last active owner: the team must keep one. Make another admin an owner first.",
  notActive: "This admin is deactivated: reactivate them first.",
  alreadyActive: "This admin is already active.",
  alreadyDeactivated: "This admin is already deactivated.",
  proposed: "Proposed: another owner approves or rejects it on this page.",
  alreadyProposed: "This is already proposed and waits for another owner.",
  alreadyOwner: "This admin is already an owner.",
  noTwoFactor: "This admin has no two-factor sign-in to reset.",
  approved: "Approved and done.",
  rejected: "Rejected: nothing was changed.",
  proposalGone: "This proposal was already decided, or no longer applies.",
  ownProposal: "Another owner must decide what you proposed.",
} as const;

const isEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/.test(value);

/** A role's checkbox: one field per role (`role-support`…), since a form never repeats a name. */
export const roleField = (role: BackOfficeRole) => `role-${role}`;

/** The roles a form's checkboxes chose; `unknown` when it names a role the table does not have. */
export function rolesFrom(values: Record<string, unknown>): { roles: BackOfficeRole[]; unknown: boolean } {
  const chosen = Object.keys(values).filter((name) => name.startsWith("role-") && values[name] === "on");
  const roles = BACK_OFFICE_ROLES.filter((role) => chosen.includes(roleField(role)));
  return { roles, unknown: chosen.length !== roles.length };
}

/** An invitation: an e-mail and at least one role other than owner. */
export const invitationSchema = formSchema(
  (v: Record<string, unknown>) => ({ email: text(v.email, 320).toLowerCase(), chosen: rolesFrom(v) }),
  [
    [(v) => isEmail(v.email), TEAM_MESSAGES.invalidEmail, "email"],
    [(v) => !v.chosen.unknown, TEAM_MESSAGES.unknownRole, "roles"],
    [(v) => !v.chosen.roles.includes(OWNER_ROLE), TEAM_MESSAGES.ownerNotInvited, "roles"],
    [(v) => v.chosen.roles.length > 0, TEAM_MESSAGES.noRole, "roles"],
  ],
  (v) => ({ email: v.email, roles: v.chosen.roles }),
  { email: { label: "Email", max: 320 } },
);

/** Accepting an invitation: a name and a password, by the registration's password rules. */
export const acceptInvitationSchema = formSchema(
  (v: Record<string, unknown>) => ({
    token: text(v.token, 200),
    firstName: text(v.firstName, 100),
    lastName: text(v.lastName, 100),
    password: secret(v.password),
    confirmPassword: secret(v.confirmPassword),
  }),
  [
    [
      (v) => v.firstName !== "" && v.lastName !== "",
      MESSAGES.namesRequired,
      (v) => (v.firstName ? "lastName" : "firstName"),
    ],
    [(v) => v.password === v.confirmPassword, MESSAGES.passwordsDoNotMatch, "confirmPassword"],
    [(v) => v.password.length >= MIN_PASSWORD_LENGTH, MESSAGES.passwordTooShort, "password"],
  ],
  undefined,
  { firstName: { label: "First name", max: 100 }, lastName: { label: "Last name", max: 100 } },
);

/** Roles as a person reads them, in the table's order: "Support, Approver". */
export const formatRoles = (roles: readonly BackOfficeRole[]) =>
  BACK_OFFICE_ROLES.filter((role) => roles.includes(role))
    .map((role) => ROLE_LABELS[role])
    .join(", ");
