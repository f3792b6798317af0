/**
 * The whole data model. Times are integer milliseconds since the epoch; money is integer cents.
 * Invariants that must hold whatever the code does (ledger immutability, append-only audit, archive
 * before delete) are triggers in db/migrations/0001_ledger_guards.sql, not only code.
 */
import { sql } from "drizzle-orm";
import {
  type AnySQLiteColumn,
  check,
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import {
  ACCESS_RECOVERY_FILE_KINDS,
  ACCESS_RECOVERY_STATUSES,
  ALERT_STATUSES,
  AUTH_TOKEN_PURPOSES,
  BACK_OFFICE_ROLES,
  type BackOfficeRole,
  CLIENT_FLAGS,
  DOCUMENT_CONTENT_TYPES,
  DOCUMENT_KINDS,
  IDENTITY_DOCUMENT_TYPES,
  MAIL_CATEGORIES,
  MONITORING_RULES,
  NOTIFICATION_KINDS,
  OAUTH_PROVIDERS,
  OUTBOX_STATUSES,
  PASSKEY_DEVICE_TYPES,
  PROFILE_STATUSES,
  PROPOSAL_KINDS,
  PROPOSAL_STATUSES,
  ROLES,
  SECOND_FACTOR_METHODS,
  SIGN_IN_RESULTS,
  TEAM_PROPOSAL_KINDS,
  TEAM_PROPOSAL_STATUSES,
  TRANSACTION_STATUSES,
  TRANSACTION_TYPES,
  VERIFICATION_STATUSES,
  WEBAUTHN_PURPOSES,
} from "./enums";

export * from "./enums";

const inList = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
const now = sql`(CAST(unixepoch('subsec') * 1000 AS INTEGER))`;

/** The client list's last-activity key, without NULLs (and without a comma, which drizzle-kit would split). */
export const USER_ACTIVITY_KEY = `(CASE WHEN "last_login_at" IS NULL THEN 0 ELSE "last_login_at" END)`;

/** Login accounts. Email is stored lower-cased; the CHECK refuses anything else. */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull().unique(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ROLES }).notNull().default("user"),
    emailConfirmedAt: integer("email_confirmed_at"),
    createdAt: integer("created_at").notNull().default(now),
    lastLoginAt: integer("last_login_at"),
    /** When the client dismissed the dashboard's suggestion to turn on two-factor sign-in (shown once). */
    twoFactorSuggestionDismissedAt: integer("two_factor_suggestion_dismissed_at"),
    /**
     * When two-factor sign-in was last turned off with a recovery code (the lost-phone path): money does not move
     * from the account for a while after (the step-up hold, app/server/auth/step-up.server.ts).
     */
    secondFactorResetAt: integer("second_factor_reset_at"),
    /** When an owner deactivated this admin: no sign-in, no session, until reactivated (the team page). */
    deactivatedAt: integer("deactivated_at"),
  },
  (t) => [
    check("users_email_lower", sql`${t.email} = lower(${t.email})`),
    check("users_role", sql`${t.role} IN (${inList(ROLES)})`),
    // The desk's client list (newest first, by keyset) and its client count.
    index("users_role_created_idx").on(t.role, t.createdAt, t.id),
    // The client list sorted by last activity (never signed in counts as 0, so the keyset has no NULLs).
    index("users_role_activity_idx").on(t.role, sql.raw(USER_ACTIVITY_KEY), t.id),
  ],
);

/** Server sessions. The primary key is the SHA-256 hash of the token; the token itself only lives in the cookie. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: integer("created_at").notNull().default(now),
    lastSeenAt: integer("last_seen_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    /** The browser's User-Agent and Cloudflare's coarse location when the session began (the sessions list). */
    userAgent: text("user_agent"),
    country: text("country"),
    city: text("city"),
    /**
     * When and how this session last proved a second factor: step-up for money is fresh for 10 minutes after an
     * authenticator's code, never after a recovery code.
     */
    secondFactorAt: integer("second_factor_at"),
    secondFactorMethod: text("second_factor_method", { enum: SECOND_FACTOR_METHODS }),
    /** How the sign-in began ('password', 'google', 'github', 'register', 'passkey'); null before it was kept. */
    signInMethod: text("sign_in_method"),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/**
 * The back-office roles each admin holds (one row per role). What a role allows is the permission table in
 * app/lib/permissions.ts; a trigger keeps roles to admins (migration 0016).
 */
export const adminRoles = sqliteTable(
  "admin_roles",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: BACK_OFFICE_ROLES }).notNull(),
    grantedBy: text("granted_by").references(() => users.id, { onDelete: "set null" }),
    grantedAt: integer("granted_at").notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.role] }),
    check("admin_roles_role", sql`${t.role} IN (${inList(BACK_OFFICE_ROLES)})`),
  ],
);

/**
 * An invitation to the back office (the team page): only the SHA-256 of the mailed token is stored (`id`); it works
 * once, for 48 hours. `roles` is a JSON array of the back-office roles the new admin gets (never owner).
 */
export const adminInvitations = sqliteTable(
  "admin_invitations",
  {
    id: text("id").primaryKey(),
    email: text("email").notNull(),
    roles: text("roles", { mode: "json" }).$type<BackOfficeRole[]>().notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: integer("created_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    acceptedAt: integer("accepted_at"),
  },
  (t) => [
    check("admin_invitations_email_lower", sql`${t.email} = lower(${t.email})`),
    index("admin_invitations_email_idx").on(t.email, t.expiresAt),
  ],
);

/** What one owner proposes on the team page and another owner decides: granting the owner role, a 2FA reset. */
export const teamProposals = sqliteTable(
  "team_proposals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: TEAM_PROPOSAL_KINDS }).notNull(),
    targetId: text("target_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    proposedBy: text("proposed_by").references(() => users.id, { onDelete: "set null" }),
    proposedAt: integer("proposed_at").notNull(),
    status: text("status", { enum: TEAM_PROPOSAL_STATUSES }).notNull().default("pending"),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: integer("decided_at"),
  },
  (t) => [
    check("team_proposals_kind", sql`${t.kind} IN (${inList(TEAM_PROPOSAL_KINDS)})`),
    check("team_proposals_status", sql`${t.status} IN (${inList(TEAM_PROPOSAL_STATUSES)})`),
    uniqueIndex("team_proposals_open_uq").on(t.kind, t.targetId).where(sql`${t.status} = 'pending'`),
  ],
);

/**
 * TOTP two-factor sign-in, one row per user who began enrolment; on once `confirmedAt` is set. The secret is
 * AES-GCM encrypted (never stored in base32); `lastUsedStep` is the newest time step accepted, so no code is
 * accepted twice.
 */
export const twoFactor = sqliteTable("two_factor", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secretEncrypted: text("secret_encrypted").notNull(),
  confirmedAt: integer("confirmed_at"),
  lastUsedStep: integer("last_used_step"),
  createdAt: integer("created_at").notNull().default(now),
});

/** Single-use recovery codes for two-factor sign-in, stored as SHA-256 hashes. */
export const recoveryCodes = sqliteTable(
  "recovery_codes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [uniqueIndex("recovery_codes_user_hash_uq").on(t.userId, t.codeHash)],
);

/**
 * Half signed in: the password was right and the second factor is awaited. Lives 5 minutes; the browser holds
 * the token, this table its SHA-256 hash. It is not a session and opens nothing.
 */
export const signInChallenges = sqliteTable(
  "sign_in_challenges",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    redirectTo: text("redirect_to"),
    /** How the first step was passed ("password", "google", "github"), for the sign-in record. */
    method: text("method").notNull().default("password"),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("sign_in_challenges_user_idx").on(t.userId)],
);

/** Each sign-in attempt on a known account: what /account's activity list shows. */
export const signInEvents = sqliteTable(
  "sign_in_events",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    result: text("result", { enum: SIGN_IN_RESULTS }).notNull(),
    /** The first step: 'password', 'google', 'github', or 'register' (a registration's own sign-in). */
    method: text("method").notNull().default("password"),
    /**
     * The second step's proof when two-factor sign-in took one: the authenticator's code or a recovery code (for
     * a wrong code, the kind tried). Null for a sign-in without a second step, and for records made before it.
     */
    secondFactor: text("second_factor", { enum: SECOND_FACTOR_METHODS }),
    userAgent: text("user_agent"),
    country: text("country"),
    city: text("city"),
    /** SHA-256 of the browser's long-lived device cookie: a success from a device never seen before sends a notice. */
    deviceHash: text("device_hash"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    check("sign_in_events_result", sql`${t.result} IN (${inList(SIGN_IN_RESULTS)})`),
    index("sign_in_events_user_idx").on(t.userId, t.createdAt),
    index("sign_in_events_device_idx").on(t.userId, t.deviceHash),
  ],
);

/** Accounts of an OAuth provider linked to a login: the provider's stable user id, never only the e-mail. */
export const oauthAccounts = sqliteTable(
  "oauth_accounts",
  {
    provider: text("provider", { enum: OAUTH_PROVIDERS }).notNull(),
    providerUserId: text("provider_user_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerUserId] }),
    uniqueIndex("oauth_accounts_user_provider_uq").on(t.userId, t.provider),
    check("oauth_accounts_provider", sql`${t.provider} IN (${inList(OAUTH_PROVIDERS)})`),
  ],
);

/**
 * An identity a provider vouched for, waiting for one more step: a new person completing the profile
 * ("register") or an existing account's owner proving it is theirs ("link"). Lives 15 minutes; the browser
 * holds the token, this table its hash.
 */
export const oauthPending = sqliteTable(
  "oauth_pending",
  {
    id: text("id").primaryKey(),
    purpose: text("purpose", { enum: ["register", "link"] }).notNull(),
    provider: text("provider", { enum: OAUTH_PROVIDERS }).notNull(),
    providerUserId: text("provider_user_id").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [check("oauth_pending_purpose", sql`${t.purpose} IN ('register', 'link')`)],
);

/** Single-use password-reset and e-mail-confirmation tokens, stored hashed. */
export const authTokens = sqliteTable(
  "auth_tokens",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: AUTH_TOKEN_PURPOSES }).notNull(),
    expiresAt: integer("expires_at").notNull(),
    usedAt: integer("used_at"),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("auth_tokens_user_idx").on(t.userId, t.purpose),
    check("auth_tokens_purpose", sql`${t.purpose} IN (${inList(AUTH_TOKEN_PURPOSES)})`),
  ],
);

/** One row per failed sign-in (or rate-limited request), counted per scope and key within a window. */
export const authFailures = sqliteTable(
  "auth_failures",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("auth_failures_key_idx").on(t.scope, t.key, t.createdAt)],
);

/**
 * The name the client list sorts by, as it shows it: first and last name, or the e-mail when both are empty,
 * lower-cased. `table` qualifies the columns in a query that joins users (which has an email too); the index
 * is built on the unqualified spelling, which SQLite matches to the qualified one.
 */
export function profileNameKey(table?: string): string {
  const col = (name: string) => (table ? `"${table}"."${name}"` : `"${name}"`);
  const full = `trim(${col("first_name")} || ' ' || ${col("last_name")})`;
  return `lower(CASE WHEN ${full} = '' THEN ${col("email")} ELSE ${full} END)`;
}

export const profiles = sqliteTable(
  "profiles",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .unique()
      .references(() => users.id),
    email: text("email").notNull(),
    firstName: text("first_name").notNull().default(""),
    lastName: text("last_name").notNull().default(""),
    phoneNumber: text("phone_number"),
    username: text("username"),
    country: text("country"),
    referralId: text("referral_id"),
    /** Projection of the ledger balance, updated in the same batch as every approval and admin entry. */
    balanceCents: integer("balance_cents").notNull().default(0),
    status: text("status", { enum: PROFILE_STATUSES }).notNull().default("active"),
    role: text("role", { enum: ROLES }).notNull().default("user"),
    totalTrades: integer("total_trades").notNull().default(0),
    winRate: real("win_rate").notNull().default(0),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    check("profiles_status", sql`${t.status} IN (${inList(PROFILE_STATUSES)})`),
    check("profiles_role", sql`${t.role} IN (${inList(ROLES)})`),
    // The desk counts clients as it lists them, by profile: an index the count reads alone.
    index("profiles_role_idx").on(t.role),
    // The client list sorted by name or by balance, by keyset on (value, user id).
    index("profiles_role_name_idx").on(t.role, sql.raw(profileNameKey()), t.userId),
    index("profiles_role_balance_idx").on(t.role, t.balanceCents, t.userId),
  ],
);

const transactionColumns = {
  userId: text("user_id").notNull(),
  transactionType: text("transaction_type", { enum: TRANSACTION_TYPES }).notNull(),
  amountCents: integer("amount_cents").notNull(),
  status: text("status", { enum: TRANSACTION_STATUSES }).notNull().default("pending"),
  walletAddress: text("wallet_address"),
  withdrawalWalletAddress: text("withdrawal_wallet_address"),
  balanceAfterCents: integer("balance_after_cents"),
  tradingPair: text("trading_pair"),
  stock: text("stock"),
  idempotencyKey: text("idempotency_key"),
  createdBy: text("created_by"),
  decidedBy: text("decided_by"),
  decidedAt: integer("decided_at"),
  /** Why an admin rejected the request, if they said (the client's mail repeats it). */
  decisionReason: text("decision_reason"),
  /**
   * An admin entry's reason, as the admin gave it (a proposal's reason for an entry a second admin approved):
   * the client reads it in the entry's mail and on their History. At most 500 characters; null when none.
   */
  memo: text("memo"),
  createdAt: integer("created_at").notNull().default(now),
};

/** The ledger. Ids only grow, so "rows after id N" is a complete catch-up for realtime feeds. */
export const transactions = sqliteTable(
  "transactions",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    ...transactionColumns,
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
  },
  (t) => [
    check("transactions_amount_positive", sql`${t.amountCents} > 0`),
    check("transactions_type", sql`${t.transactionType} IN (${inList(TRANSACTION_TYPES)})`),
    check("transactions_status", sql`${t.status} IN (${inList(TRANSACTION_STATUSES)})`),
    check(
      "transactions_stock_deposit_has_stock",
      sql`${t.transactionType} <> 'stock_deposit' OR ${t.stock} IS NOT NULL`,
    ),
    uniqueIndex("transactions_user_idempotency_uq").on(t.userId, t.idempotencyKey),
    index("transactions_user_recent_idx").on(t.userId, t.createdAt, t.id),
    // Dashboard lists: latest rows of one status (approved activity, pending and declined), latest trades.
    index("transactions_user_status_recent_idx").on(t.userId, t.status, t.createdAt, t.id),
    index("transactions_user_type_recent_idx").on(t.userId, t.transactionType, t.createdAt, t.id),
    // A monthly statement's movements: approved rows by the time the money moved (the decision; rows written
    // approved without one moved when written), so one month is one index range in that order.
    index("transactions_user_moved_idx")
      .on(t.userId, sql`coalesce(${t.decidedAt}, ${t.createdAt})`, t.id)
      .where(sql`status = 'approved'`),
    // /admin/transactions: every client's rows newest first, and by status (pending, rejected...), by keyset.
    index("transactions_recent_idx").on(t.createdAt, t.id),
    index("transactions_status_recent_idx").on(t.status, t.createdAt, t.id),
    // /admin/transactions?min=&max=: a rare amount range is read off this index and sorted, not found by walking
    // the whole history newest first (app/server/admin/transaction-reads.server.ts).
    index("transactions_amount_recent_idx").on(t.amountCents, t.createdAt, t.id),
    // "New address": has this client ever been paid to this address? One look-up, however many payouts the
    // client has had (the desk asks it for every listed client on every load).
    index("transactions_user_payouts_idx")
      .on(t.userId, t.withdrawalWalletAddress, t.id)
      .where(sql`status = 'approved' AND transaction_type = 'withdraw'`),
    // Approval limits: what one admin approved in the last 24 hours, read inside the statement of each act.
    index("transactions_decided_by_idx").on(t.decidedBy, t.decidedAt).where(sql`status = 'approved'`),
  ],
);

/**
 * Four eyes: a money move at or above the threshold (an admin's ledger entry, the approval of a client's deposit,
 * stock deposit or withdrawal request, the desk's close of a client's position) or any deposit-wallet change is
 * first a proposal; a different admin approves it (then the effect is applied with its checks at that moment) or
 * rejects it. Guards (db/guards.sql, "Second approval"): decided once, never approved by its proposer nor after
 * `expires_at`.
 */
export const proposals = sqliteTable(
  "proposals",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    kind: text("kind", { enum: PROPOSAL_KINDS }).notNull(),
    status: text("status", { enum: PROPOSAL_STATUSES }).notNull().default("pending"),
    /** The client concerned (entries and request approvals). */
    userId: text("user_id"),
    /** The request to approve; for an entry, the transaction its approval created. */
    transactionId: integer("transaction_id"),
    /** The entry's (or the request's) type, amount, trading pair and stock. */
    transactionType: text("transaction_type", { enum: TRANSACTION_TYPES }),
    amountCents: integer("amount_cents"),
    tradingPair: text("trading_pair"),
    stock: text("stock"),
    /** A wallet change: which wallet, the address it had when proposed and the one proposed. */
    walletId: integer("wallet_id"),
    walletType: text("wallet_type"),
    oldAddress: text("old_address"),
    newAddress: text("new_address"),
    /**
     * A close of a client's position by the desk: which position and how many shares it had open when proposed
     * (the approval closes exactly those, at the bid of that moment).
     */
    positionId: integer("position_id"),
    sharesE4: integer("shares_e4"),
    /** The proposer's reason (required for an entry and a close). */
    note: text("note"),
    /**
     * Why an act under the threshold waits: the approval limit it would break ("Would bring your approvals for
     * this client today to $12,000.00."); null when its amount alone needs a second admin.
     */
    limitReason: text("limit_reason"),
    /** The proposing form's key: a resubmission is the same proposal. */
    idempotencyKey: text("idempotency_key"),
    proposedBy: text("proposed_by").notNull(),
    proposedAt: integer("proposed_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
    /** Why the second admin rejected it (required to reject). */
    decisionReason: text("decision_reason"),
  },
  (t) => [
    check("proposals_kind", sql`${t.kind} IN (${inList(PROPOSAL_KINDS)})`),
    check("proposals_status", sql`${t.status} IN (${inList(PROPOSAL_STATUSES)})`),
    check("proposals_amount_positive", sql`${t.amountCents} IS NULL OR ${t.amountCents} > 0`),
    check(
      "proposals_entry_complete",
      sql`${t.kind} <> 'ledger_entry' OR (${t.userId} IS NOT NULL AND ${t.transactionType} IS NOT NULL
          AND ${t.amountCents} IS NOT NULL AND length(trim(coalesce(${t.note}, ''))) > 0)`,
    ),
    check(
      "proposals_request_complete",
      sql`${t.kind} <> 'request_approval' OR (${t.userId} IS NOT NULL AND ${t.transactionId} IS NOT NULL
          AND ${t.transactionType} IS NOT NULL)`,
    ),
    check(
      "proposals_wallet_complete",
      sql`${t.kind} <> 'wallet_change' OR (${t.walletId} IS NOT NULL AND ${t.oldAddress} IS NOT NULL
          AND ${t.newAddress} IS NOT NULL)`,
    ),
    check(
      "proposals_close_complete",
      sql`${t.kind} <> 'position_close' OR (${t.userId} IS NOT NULL AND ${t.positionId} IS NOT NULL
          AND ${t.sharesE4} > 0 AND ${t.stock} IS NOT NULL AND ${t.amountCents} IS NOT NULL
          AND length(trim(coalesce(${t.note}, ''))) > 0)`,
    ),
    uniqueIndex("proposals_proposer_idempotency_uq").on(t.proposedBy, t.idempotencyKey),
    // One waiting proposal per request and per wallet.
    uniqueIndex("proposals_pending_request_uq")
      .on(t.transactionId)
      .where(sql`kind = 'request_approval' AND status = 'pending'`),
    uniqueIndex("proposals_pending_wallet_uq").on(t.walletId).where(sql`kind = 'wallet_change' AND status = 'pending'`),
    uniqueIndex("proposals_pending_close_uq")
      .on(t.positionId)
      .where(sql`kind = 'position_close' AND status = 'pending'`),
    // The 'Awaiting second approval' cards: the desk's (all waiting, oldest first) and a client's.
    index("proposals_pending_idx").on(t.proposedAt, t.id).where(sql`status = 'pending'`),
    index("proposals_user_idx").on(t.userId, t.status, t.proposedAt),
    // Approval limits: whether a second admin approved an admin's act (it then counts for neither).
    index("proposals_transaction_idx").on(t.transactionId),
  ],
);

export const depositWallets = sqliteTable("deposit_wallets", {
  id: integer("id").primaryKey({ autoIncrement: true }),
  walletType: text("wallet_type").notNull().unique(),
  walletAddress: text("wallet_address").notNull(),
  updatedAt: integer("updated_at").notNull().default(now),
  updatedBy: text("updated_by"),
});

/**
 * Count and sum of a client's transactions per status, type and stock ('' when none): what every balance,
 * total and position is computed from, so that their cost does not grow with the client's history.
 * Written only by the triggers of db/migrations/0003_ledger_totals.sql, in the same statement as the ledger
 * row itself; a test holds it equal to the GROUP BY of `transactions`. A WITHOUT ROWID table since migration 0042
 * (drizzle-kit does not model that; a table made again must keep it), as are the two below.
 */
export const ledgerTotals = sqliteTable(
  "ledger_totals",
  {
    userId: text("user_id").notNull(),
    status: text("status", { enum: TRANSACTION_STATUSES }).notNull(),
    transactionType: text("transaction_type", { enum: TRANSACTION_TYPES }).notNull(),
    stock: text("stock").notNull(),
    count: integer("count").notNull(),
    cents: integer("cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.status, t.transactionType, t.stock] })],
);

/**
 * Count and sum of a client's approved transactions per month ('YYYY-MM', UTC) and type, keyed by the month the
 * money moved (`decided_at`): a statement's opening balance is the signed sum of the months before it, at most
 * one row per type and month, never the client's history. Written only by the triggers of
 * db/migrations/0008_monthly_statements.sql; a test holds it equal to the GROUP BY of `transactions`.
 */
export const ledgerMonths = sqliteTable(
  "ledger_months",
  {
    userId: text("user_id").notNull(),
    month: text("month").notNull(),
    transactionType: text("transaction_type", { enum: TRANSACTION_TYPES }).notNull(),
    count: integer("count").notNull(),
    cents: integer("cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.month, t.transactionType] })],
);

/** The address a client asked a withdrawal to be paid to (one row per withdrawal request). */
export const withdrawalWallets = sqliteTable(
  "withdrawal_wallets",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    transactionId: integer("transaction_id"),
    walletAddress: text("wallet_address").notNull(),
    cryptoCurrency: text("crypto_currency").notNull(),
    amountCents: integer("amount_cents").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [index("withdrawal_wallets_user_idx").on(t.userId)],
);

/** Append-only record of every admin mutation: who, what, on whom, before and after. */
export const auditLog = sqliteTable(
  "audit_log",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    actorId: text("actor_id"),
    action: text("action").notNull(),
    target: text("target"),
    detail: text("detail", { mode: "json" }).$type<Record<string, unknown>>(),
    createdAt: integer("created_at").notNull().default(now),
  },
  (t) => [
    index("audit_log_created_idx").on(t.createdAt),
    index("audit_log_actor_idx").on(t.actorId, t.createdAt),
    index("audit_log_target_idx").on(t.target, t.createdAt),
  ],
);

/** Every notice is written here first (in the batch of the action that caused it), then delivered. */
export const emailOutbox = sqliteTable(
  "email_outbox",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    toAddress: text("to_address").notNull(),
    template: text("template").notNull(),
    /** The notice's data; NULL once the delivered mail is archived to R2 (`archiveId` says where). */
    payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>(),
    status: text("status", { enum: OUTBOX_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: integer("next_attempt_at").notNull().default(now),
    lastError: text("last_error"),
    providerId: text("provider_id"),
    /** Set for notices tied to one event (e.g. "deposit_request:tx:42"), so a replayed request cannot send twice. */
    dedupeKey: text("dedupe_key").unique(),
    createdAt: integer("created_at").notNull().default(now),
    sentAt: integer("sent_at"),
    /** When the row was marked failed; cleared when an admin re-queues it. */
    failedAt: integer("failed_at"),
    /** When an admin last re-queued the failed row; its retry window then starts again from here. */
    requeuedAt: integer("requeued_at"),
    /** The R2 object its body was moved to, 30 days after delivery (docs/decisions/0075). */
    archiveId: integer("archive_id").references(() => mailArchives.id),
  },
  (t) => [
    check("email_outbox_status", sql`${t.status} IN (${inList(OUTBOX_STATUSES)})`),
    // A body leaves the row only for an archive object that holds it.
    check("email_outbox_body_kept", sql`${t.payload} IS NOT NULL OR ${t.archiveId} IS NOT NULL`),
    // The cron's due rows. Only pending rows: the delivered ones, the bulk of the table, stay out of it.
    index("email_outbox_due_idx").on(t.nextAttemptAt).where(sql`status = 'pending'`),
    // The archive's next rows: delivered, body still here (empty once the archive has caught up).
    index("email_outbox_unarchived_idx")
      .on(t.createdAt)
      .where(sql`status IN ('sent', 'captured') AND archive_id IS NULL`),
    // The admin's mail page lists the notices not delivered yet, newest first; sent rows are the bulk and stay out.
    index("email_outbox_open_idx").on(t.createdAt, t.id).where(sql`status IN ('pending', 'failed')`),
    // The /admin banner counts the notices that failed in the last day.
    index("email_outbox_failed_idx").on(t.failedAt).where(sql`status = 'failed'`),
    // One recipient's mail by time: /admin/mail's search by recipient and month, and transaction monitoring's
    // recent security notices of one account (the new-destination rule).
    index("email_outbox_recipient_idx").on(t.toAddress, t.createdAt),
  ],
);

/**
 * Delivered mail archived to the private MAIL_ARCHIVE bucket: one immutable gzipped NDJSON object per batch, under
 * the month its mails were queued, with the checksum a read verifies (docs/decisions/0075).
 */
export const mailArchives = sqliteTable(
  "mail_archives",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** `mail/YYYY-MM/<first id>-<last id>-<sha256 prefix>.ndjson.gz`: named by its content, never overwritten. */
    objectKey: text("object_key").notNull().unique(),
    month: text("month").notNull(),
    rowCount: integer("row_count").notNull(),
    /** SHA-256 of the stored (compressed) bytes, hex. */
    sha256: text("sha256").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    /**
     * When the object's compact outbox rows left D1, 13 months on: from then on /admin/mail finds its mails through
     * `mail_archive_recipients` and reads them from the object (docs/decisions/0075, its update).
     */
    rowsLeftAt: integer("rows_left_at"),
  },
  // The objects whose rows are still in D1, by month: the cron's next ones to empty (the recent 13 months only).
  (t) => [index("mail_archives_rows_in_d1_idx").on(t.month).where(sql`rows_left_at IS NULL`)],
);

/**
 * Who an archived object's mails went to, written as its compact rows leave D1: one row per recipient, month and
 * object, so /admin/mail's search by recipient and month opens only the objects that hold that recipient's mail.
 * A WITHOUT ROWID table (migration 0043; drizzle-kit does not model that), read only by its key.
 */
export const mailArchiveRecipients = sqliteTable(
  "mail_archive_recipients",
  {
    toAddress: text("to_address").notNull(),
    month: text("month").notNull(),
    archiveId: integer("archive_id")
      .notNull()
      .references(() => mailArchives.id),
  },
  (t) => [primaryKey({ columns: [t.toAddress, t.month, t.archiveId] })],
);

/**
 * Audit rows archived to the private AUDIT_ARCHIVE bucket 13 months on (docs/decisions/0077): one immutable
 * gzipped NDJSON object per batch of one UTC month. An object holds every row of its month whose id lies between
 * its first and last id, which is what `audit_log_no_delete` checks before a row may leave D1.
 */
export const auditArchives = sqliteTable(
  "audit_archives",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    /** `audit/YYYY-MM/<first id>-<last id>-<sha256 prefix>.ndjson.gz`: named by its content, never overwritten. */
    objectKey: text("object_key").notNull().unique(),
    /** The UTC month of every row's `created_at`, "YYYY-MM". */
    month: text("month").notNull(),
    firstId: integer("first_id").notNull(),
    lastId: integer("last_id").notNull(),
    /** The rows' earliest and latest `created_at`: a read opens only the objects its range and page reach. */
    oldestAt: integer("oldest_at").notNull(),
    newestAt: integer("newest_at").notNull(),
    rowCount: integer("row_count").notNull(),
    /** SHA-256 of the stored (compressed) bytes, hex. */
    sha256: text("sha256").notNull(),
    bytes: integer("bytes").notNull(),
    createdAt: integer("created_at").notNull().default(now),
  },
  // The delete guard's look-up (month, then the id range), and the readers' objects of a range of months.
  (t) => [index("audit_archives_month_idx").on(t.month, t.firstId)],
);

/** Copies of deleted client data, kept for the retention period the terms promise. */
export const transactionsArchive = sqliteTable(
  "transactions_archive",
  {
    id: integer("id").primaryKey(),
    ...transactionColumns,
    archivedAt: integer("archived_at").notNull().default(now),
    archivedBy: text("archived_by"),
  },
  (t) => [index("transactions_archive_user_idx").on(t.userId)],
);

export const profilesArchive = sqliteTable(
  "profiles_archive",
  {
    archiveId: integer("archive_id").primaryKey({ autoIncrement: true }),
    id: integer("id").notNull(),
    userId: text("user_id").notNull(),
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    phoneNumber: text("phone_number"),
    username: text("username"),
    country: text("country"),
    referralId: text("referral_id"),
    balanceCents: integer("balance_cents").notNull(),
    status: text("status").notNull(),
    role: text("role").notNull(),
    totalTrades: integer("total_trades").notNull(),
    winRate: real("win_rate").notNull(),
    createdAt: integer("created_at").notNull(),
    updatedAt: integer("updated_at").notNull(),
    archivedAt: integer("archived_at").notNull().default(now),
    archivedBy: text("archived_by"),
  },
  (t) => [index("profiles_archive_user_idx").on(t.userId)],
);

export type User = typeof users.$inferSelect;
export type Profile = typeof profiles.$inferSelect;
export type Transaction = typeof transactions.$inferSelect;
export type DepositWallet = typeof depositWallets.$inferSelect;
export type Proposal = typeof proposals.$inferSelect;

/**
 * A client's identity verification (docs/product.md, "Identity verification"). One live case per client; when an
 * admin deletes the client's data the case is kept as evidence: `ended_at` is the account's end and `retain_until`
 * five years later, after which the scheduled purge deletes it and its documents.
 */
export const verificationCases = sqliteTable(
  "verification_cases",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    status: text("status", { enum: VERIFICATION_STATUSES }).notNull().default("draft"),
    legalFirstName: text("legal_first_name"),
    legalLastName: text("legal_last_name"),
    /** YYYY-MM-DD. */
    dateOfBirth: text("date_of_birth"),
    /** A name from the product's country list (app/lib/countries.ts), as the profile keeps it. */
    country: text("country"),
    address: text("address"),
    documentType: text("document_type", { enum: IDENTITY_DOCUMENT_TYPES }),
    documentNumber: text("document_number"),
    /** When the client last sent the case; a decision names it, so a decision on a stale page is refused. */
    submittedAt: integer("submitted_at"),
    reviewedBy: text("reviewed_by"),
    reviewedAt: integer("reviewed_at"),
    /** The reviewer's reason (a rejection) or message (more information needed). */
    reviewNote: text("review_note"),
    /** More information needed: which document the client must send again. */
    reviewDocumentKind: text("review_document_kind", { enum: DOCUMENT_KINDS }),
    createdAt: integer("created_at").notNull().default(now),
    updatedAt: integer("updated_at").notNull().default(now),
    /** The account's end (its data deleted by an admin); the case is then evidence only. */
    endedAt: integer("ended_at"),
    retainUntil: integer("retain_until"),
  },
  (t) => [
    check("verification_cases_status", sql`${t.status} IN (${inList(VERIFICATION_STATUSES)})`),
    check(
      "verification_cases_document_type",
      sql`${t.documentType} IS NULL OR ${t.documentType} IN (${inList(IDENTITY_DOCUMENT_TYPES)})`,
    ),
    check("verification_cases_ended", sql`(${t.endedAt} IS NULL) = (${t.retainUntil} IS NULL)`),
    uniqueIndex("verification_cases_live_idx").on(t.userId).where(sql`ended_at IS NULL`),
    // The review queue: cases by status, oldest submission first.
    index("verification_cases_queue_idx").on(t.status, t.submittedAt, t.id),
    index("verification_cases_retain_idx").on(t.retainUntil).where(sql`retain_until IS NOT NULL`),
  ],
);

/**
 * A file of a case, stored in the private R2 bucket under a random key. The client's file name is kept here only;
 * a replaced file stays (with `replaced_at`) as evidence of what was reviewed.
 */
export const verificationDocuments = sqliteTable(
  "verification_documents",
  {
    /** Random; the admin's document address. */
    id: text("id").primaryKey(),
    caseId: integer("case_id").notNull(),
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: DOCUMENT_KINDS }).notNull(),
    objectKey: text("object_key").notNull().unique(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type", { enum: DOCUMENT_CONTENT_TYPES }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    /** SHA-256 of the bytes, hex. */
    sha256: text("sha256").notNull(),
    uploadedAt: integer("uploaded_at").notNull().default(now),
    replacedAt: integer("replaced_at"),
  },
  (t) => [
    check("verification_documents_kind", sql`${t.kind} IN (${inList(DOCUMENT_KINDS)})`),
    check("verification_documents_type", sql`${t.contentType} IN (${inList(DOCUMENT_CONTENT_TYPES)})`),
    check("verification_documents_size", sql`${t.sizeBytes} > 0`),
    // One current file of each kind per case.
    uniqueIndex("verification_documents_current_idx").on(t.caseId, t.kind).where(sql`replaced_at IS NULL`),
    index("verification_documents_user_idx").on(t.userId),
  ],
);

/**
 * A client's request to get back into an account whose every second factor is lost (docs/product.md, "Access
 * recovery"). Started after the password (or provider) step, with the client's approved verification case on file;
 * the browser that started it holds a random token whose hash is `tokenHash`. Two admins approve it, one after the
 * other (migration 0028's triggers hold that in the database too); the browser and place it came from are kept for
 * the notices that let the owner cancel a request that was not theirs.
 */
export const accessRecoveryRequests = sqliteTable(
  "access_recovery_requests",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    caseId: integer("case_id").notNull(),
    status: text("status", { enum: ACCESS_RECOVERY_STATUSES }).notNull().default("open"),
    tokenHash: text("token_hash").notNull(),
    userAgent: text("user_agent"),
    country: text("country"),
    city: text("city"),
    createdAt: integer("created_at").notNull(),
    submittedAt: integer("submitted_at"),
    firstApprovedBy: text("first_approved_by"),
    firstApprovedAt: integer("first_approved_at"),
    decidedBy: text("decided_by"),
    decidedAt: integer("decided_at"),
    /** Why it was refused: the client reads it. */
    refusalReason: text("refusal_reason"),
  },
  (t) => [
    check("access_recovery_requests_status", sql`${t.status} IN (${inList(ACCESS_RECOVERY_STATUSES)})`),
    uniqueIndex("access_recovery_requests_live_idx")
      .on(t.userId)
      .where(sql`status IN ('open', 'submitted', 'first_approved')`),
    // The compliance queue: sent requests, oldest first.
    index("access_recovery_requests_queue_idx").on(t.status, t.submittedAt, t.id),
  ],
);

/** A file of an access-recovery request, in the identity documents' private bucket, kept with the client's case. */
export const accessRecoveryFiles = sqliteTable(
  "access_recovery_files",
  {
    /** Random; the admin's address of the file. */
    id: text("id").primaryKey(),
    requestId: integer("request_id").notNull(),
    caseId: integer("case_id").notNull(),
    userId: text("user_id").notNull(),
    kind: text("kind", { enum: ACCESS_RECOVERY_FILE_KINDS }).notNull(),
    objectKey: text("object_key").notNull().unique(),
    fileName: text("file_name").notNull(),
    contentType: text("content_type", { enum: DOCUMENT_CONTENT_TYPES }).notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    uploadedAt: integer("uploaded_at").notNull(),
    replacedAt: integer("replaced_at"),
  },
  (t) => [
    check("access_recovery_files_kind", sql`${t.kind} IN (${inList(ACCESS_RECOVERY_FILE_KINDS)})`),
    check("access_recovery_files_type", sql`${t.contentType} IN (${inList(DOCUMENT_CONTENT_TYPES)})`),
    check("access_recovery_files_size", sql`${t.sizeBytes} > 0`),
    uniqueIndex("access_recovery_files_current_idx").on(t.requestId, t.kind).where(sql`replaced_at IS NULL`),
    index("access_recovery_files_case_idx").on(t.caseId),
  ],
);

/**
 * The back office's notes on a client (docs/product.md, "Back-office roles", "Client notes"), never shown to the
 * client. Append-only (migration 0018's triggers): a correction is a new note naming the one it corrects
 * (`correctsId`, a live note of the same client). A note may set and clear flags (JSON arrays of `CLIENT_FLAGS`);
 * `retainUntil` is set once, when the client's data is deleted, and the purge deletes the note after it.
 */
export const clientNotes = sqliteTable(
  "client_notes",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id),
    authorId: text("author_id")
      .notNull()
      .references(() => users.id),
    body: text("body").notNull(),
    correctsId: integer("corrects_id").references((): AnySQLiteColumn => clientNotes.id),
    flagsAdded: text("flags_added").notNull().default("[]"),
    flagsRemoved: text("flags_removed").notNull().default("[]"),
    createdAt: integer("created_at").notNull().default(now),
    retainUntil: integer("retain_until"),
  },
  (t) => [
    check("client_notes_body", sql`length(trim(${t.body})) BETWEEN 1 AND 2000`),
    check(
      "client_notes_flags",
      sql`json_valid(${t.flagsAdded}) AND json_type(${t.flagsAdded}) = 'array' AND json_valid(${t.flagsRemoved}) AND json_type(${t.flagsRemoved}) = 'array'`,
    ),
    index("client_notes_user_idx").on(t.userId, t.id),
    index("client_notes_corrects_idx").on(t.correctsId).where(sql`${t.correctsId} IS NOT NULL`),
    index("client_notes_retain_idx").on(t.retainUntil).where(sql`${t.retainUntil} IS NOT NULL`),
  ],
);

/** A client's current flags as their notes leave them, kept by a trigger on `client_notes` (migration 0018). */
export const clientFlags = sqliteTable(
  "client_flags",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    flag: text("flag", { enum: CLIENT_FLAGS }).notNull(),
    /** The note that set it. */
    noteId: integer("note_id").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.flag] }),
    check("client_flags_flag", sql`${t.flag} IN (${inList(CLIENT_FLAGS)})`),
  ],
);

/**
 * Transaction monitoring's alerts (docs/product.md, "Transaction monitoring"): one per client, rule and triggering
 * transaction (re-running a rule never duplicates), decided once and never deleted (migration 0022's triggers).
 * `detail` holds the involved transactions' ids and the figures the alert's words need; a windowed rule's open alert
 * adds the later requests that meet it, never dropping one (migration 0027).
 */
export const monitoringAlerts = sqliteTable(
  "monitoring_alerts",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id").notNull(),
    rule: text("rule", { enum: MONITORING_RULES }).notNull(),
    triggerTransactionId: integer("trigger_transaction_id").notNull(),
    detail: text("detail", { mode: "json" }).notNull().default(sql`'{}'`).$type<Record<string, unknown>>(),
    createdAt: integer("created_at").notNull().default(now),
    status: text("status", { enum: ALERT_STATUSES }).notNull().default("open"),
    disposedBy: text("disposed_by"),
    disposedAt: integer("disposed_at"),
    dispositionNote: text("disposition_note"),
    reportReference: text("report_reference"),
  },
  (t) => [
    check("monitoring_alerts_rule", sql`${t.rule} IN (${inList(MONITORING_RULES)})`),
    check("monitoring_alerts_status", sql`${t.status} IN (${inList(ALERT_STATUSES)})`),
    check("monitoring_alerts_detail", sql`json_valid(${t.detail}) AND json_type(${t.detail}) = 'object'`),
    check(
      "monitoring_alerts_disposed",
      sql`(${t.status} = 'open') = (${t.disposedAt} IS NULL) AND (${t.status} = 'open') = (${t.disposedBy} IS NULL)`,
    ),
    uniqueIndex("monitoring_alerts_once_uq").on(t.userId, t.rule, t.triggerTransactionId),
    index("monitoring_alerts_open_idx").on(t.createdAt, t.id).where(sql`${t.status} = 'open'`),
    index("monitoring_alerts_user_idx").on(t.userId, t.rule, t.createdAt),
  ],
);

/**
 * A passkey (docs/product.md, "Passkeys"): a WebAuthn credential bound to one account by its id, with what the
 * last ceremony reported (signature counter, backup state). The migration's triggers keep at most 10 per account
 * and the counter going forward only.
 */
export const passkeys = sqliteTable(
  "passkeys",
  {
    /** The credential id, base64url. */
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: integer("counter").notNull().default(0),
    transports: text("transports", { mode: "json" }).notNull().default(sql`'[]'`).$type<string[]>(),
    deviceType: text("device_type", { enum: PASSKEY_DEVICE_TYPES }).notNull(),
    backedUp: integer("backed_up", { mode: "boolean" }).notNull(),
    createdAt: integer("created_at").notNull().default(now),
    lastUsedAt: integer("last_used_at"),
  },
  (t) => [
    check("passkeys_name", sql`length(${t.name}) BETWEEN 1 AND 64`),
    check("passkeys_device_type", sql`${t.deviceType} IN (${inList(PASSKEY_DEVICE_TYPES)})`),
    check("passkeys_counter", sql`${t.counter} >= 0`),
    index("passkeys_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * A passkey ceremony's challenge: kept here, taken once (deleted by the statement that reads it), 5 minutes.
 * `requestedBy` is who asked: the session (adding, step-up), the sign-in's second step, or the address of a
 * visitor signing in (which bounds how many one address may hold open).
 */
export const webauthnChallenges = sqliteTable(
  "webauthn_challenges",
  {
    challenge: text("challenge").primaryKey(),
    purpose: text("purpose", { enum: WEBAUTHN_PURPOSES }).notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    requestedBy: text("requested_by").notNull(),
    createdAt: integer("created_at").notNull().default(now),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [
    check("webauthn_challenges_purpose", sql`${t.purpose} IN (${inList(WEBAUTHN_PURPOSES)})`),
    check("webauthn_challenges_account", sql`(${t.purpose} = 'sign_in') = (${t.userId} IS NULL)`),
    index("webauthn_challenges_requester_idx").on(t.requestedBy, t.expiresAt),
    index("webauthn_challenges_expiry_idx").on(t.expiresAt),
  ],
);

/**
 * The client's notification centre (docs/product.md, "Notifications"): one row per event the client was mailed
 * about, written by the outbox insert of that mail (migration 0025's trigger), never by code of its own. `subject`
 * is what it links to ("transaction:42", "verification", "security:new_browser"); `data` is the mail's data.
 */
export const notifications = sqliteTable(
  "notifications",
  {
    id: integer("id").primaryKey({ autoIncrement: true }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: NOTIFICATION_KINDS }).notNull(),
    subject: text("subject").notNull(),
    data: text("data", { mode: "json" }).notNull().$type<Record<string, unknown>>(),
    /** The mail's dedupe key: an event retried writes no second notification. */
    dedupeKey: text("dedupe_key").unique(),
    createdAt: integer("created_at").notNull().default(now),
    readAt: integer("read_at"),
  },
  (t) => [
    check("notifications_kind", sql`${t.kind} IN (${inList(NOTIFICATION_KINDS)})`),
    index("notifications_user_newest_idx").on(t.userId, t.createdAt, t.id),
    // The bell's count, on every signed-in page: only unread rows are in it.
    index("notifications_unread_idx").on(t.userId).where(sql`${t.readAt} IS NULL`),
  ],
);

/** The optional mails a client chose (absent = wanted); security and legal notices have no category. */
export const mailPreferences = sqliteTable(
  "mail_preferences",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    category: text("category", { enum: MAIL_CATEGORIES }).notNull(),
    wanted: integer("wanted", { mode: "boolean" }).notNull(),
    updatedAt: integer("updated_at").notNull().default(now),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.category] }),
    check("mail_preferences_category", sql`${t.category} IN (${inList(MAIL_CATEGORIES)})`),
    check("mail_preferences_wanted", sql`${t.wanted} IN (0, 1)`),
  ],
);

/**
 * Count and sum of a client's approved transactions per UTC day ('YYYY-MM-DD') and type, keyed like
 * `ledger_months` by the day the money moved: a day's closing balance is its month's opening plus the signed days
 * of the month up to it, never a read of the client's history (/portfolio's and the dashboard's charts). Written
 * only by the triggers of db/migrations/0024_ledger_days.sql; a test holds it equal to the GROUP BY of
 * `transactions`.
 */
export const ledgerDays = sqliteTable(
  "ledger_days",
  {
    userId: text("user_id").notNull(),
    day: text("day").notNull(),
    transactionType: text("transaction_type", { enum: TRANSACTION_TYPES }).notNull(),
    count: integer("count").notNull(),
    cents: integer("cents").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day, t.transactionType] })],
);

/**
 * The desk's running totals, one row each: 'clients' (profiles of role 'user') and 'pending' (transactions
 * waiting for a decision). Written only by the triggers of db/migrations/0026_desk_counts.sql, in the same
 * statement as the row counted; a test holds both equal to their COUNT(*).
 */
export const deskCounts = sqliteTable("desk_counts", {
  name: text("name", { enum: ["clients", "pending"] }).primaryKey(),
  n: integer("n").notNull(),
});
