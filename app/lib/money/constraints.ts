/**
 * What may happen to money, in one place beside the figures (`rules.ts`, which this module builds on): what a
 * move must be covered by, what a client may cancel, what an admin's own acts add up to, and what a client's
 * verification level allows (docs/product.md, "Money rules"; which acts need a fresh code or a second admin is the
 * acts table's, app/lib/acts.ts). The SQL conditions the server puts in its statements (`coverSql`,
 * `cancellableSql`; the levels' limits in app/server/verification/levels.server.ts) and the TypeScript checks
 * (`coverHolds`, `mayCancel`, `depositWithinLevel`) are both derived from these tables, and property tests hold
 * them equal on random ledgers. Nothing else in the code base may spell out one of these rules.
 *
 * Only type imports and `./rules.ts` here, so the Node scripts can import this module as it is.
 */
import type { TransactionStatus, TransactionType } from "../../../db/enums";
import { type FigureName, figure, figureSql, type LedgerTotals, signedCents } from "./rules.ts";

/* ---------------------------------------------------------------- cover: money out never overdraws a figure */

/**
 * A move of money is covered when it brings money in, or when the figure it is checked against stays at 0 or more
 * once the move is counted (a withdrawal of 50 against a figure of 50 passes; of 51 does not).
 */
export const COVER_RULES = {
  /**
   * A client's withdrawal request is covered by withdrawable: the withdrawals already waiting are reserved, and so
   * is the cost of the open positions.
   */
  withdrawalRequest: { figure: "withdrawable", lessOpenPositions: true },
  /** A buy order is covered by spendable (Available less waiting withdrawals) less the open positions' cost. */
  order: { figure: "spendable", lessOpenPositions: true },
  /**
   * Approving a client's request: a withdrawal must still be covered by coverable (withdrawable without the
   * reserve, as the withdrawal being approved is one of the pending ones); a deposit always passes.
   */
  requestApproval: { figure: "coverable" },
  /** An admin entry never takes the ledger balance below zero: a withdrawal or loss entry must be covered by it. */
  entry: { figure: "ledgerBalance" },
} as const satisfies Record<string, { figure: FigureName; lessOpenPositions?: true }>;

export type CoverRuleName = keyof typeof COVER_RULES;

/** One move: its type (which says its direction, by the ledger balance's signs) and its amount. */
export interface Move {
  type: TransactionType;
  amountCents: number;
}

const lessOpenPositions = (name: CoverRuleName) => "lessOpenPositions" in COVER_RULES[name];

/** A cover rule's figure, the open positions' cost (`reservedCents`) taken off where the rule says. */
export function coverFigure(name: CoverRuleName, totals: LedgerTotals, reservedCents: number): number {
  return figure(totals, COVER_RULES[name].figure) - (lessOpenPositions(name) ? reservedCents : 0);
}

/** The cover rule in TypeScript, over a client's totals and the cost of their open positions. */
export function coverHolds(name: CoverRuleName, totals: LedgerTotals, move: Move, reservedCents = 0): boolean {
  const signed = signedCents(move.type, move.amountCents);
  return signed > 0 || coverFigure(name, totals, reservedCents) + signed >= 0;
}

/**
 * The cost of a client's open positions, reserved until they are sold (`userIdSql` an SQL expression): read off
 * the positions_open_idx range of their open positions.
 */
export function openPositionsCostSql(userIdSql: string): string {
  return `(SELECT coalesce(sum(open_cost_cents), 0) FROM positions WHERE user_id = ${userIdSql} AND status = 'open')`;
}

const quote = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** The signed amount of a move in SQL, its type and amount being SQL expressions (columns or `?`). */
function signedAmountSql(typeSql: string, amountSql: string): string {
  const sign = (type: TransactionType) => signedCents(type, 1);
  const types: TransactionType[] = ["deposit", "stock_deposit", "fee_deposit", "withdraw", "profit", "loss"];
  const cases = types.map((type) => `WHEN ${quote(type)} THEN ${sign(type)}`).join(" ");
  return `(${amountSql} * CASE ${typeSql} ${cases} ELSE 0 END)`;
}

/**
 * The cover rule in SQL, for the WHERE of the statement that writes the move: `userIdSql`, `typeSql` and
 * `amountSql` are SQL expressions (columns, or `?` for bound values); only the table's constants are spliced in.
 */
export function coverSql(name: CoverRuleName, userIdSql: string, typeSql: string, amountSql: string): string {
  const signed = signedAmountSql(typeSql, amountSql);
  return `(${signed} > 0 OR ${coverFigureSql(name, userIdSql)} + ${signed} >= 0)`;
}

/** A cover rule's figure in SQL, the open positions' cost taken off where the rule says. */
export function coverFigureSql(name: CoverRuleName, userIdSql: string): string {
  const reserve = lessOpenPositions(name) ? ` - ${openPositionsCostSql(userIdSql)}` : "";
  return `(${figureSql(COVER_RULES[name].figure, userIdSql)}${reserve})`;
}

/** Money spent inside the account (a buy's cost, `amountSql`) is covered when the rule's figure stays at 0 or more. */
export function spendCoveredSql(name: CoverRuleName, userIdSql: string, amountSql: string): string {
  return `(${coverFigureSql(name, userIdSql)} - ${amountSql} >= 0)`;
}

/** `spendCoveredSql` in TypeScript. */
export const spendCovered = (name: CoverRuleName, totals: LedgerTotals, amountCents: number, reservedCents: number) =>
  coverFigure(name, totals, reservedCents) - amountCents >= 0;

/* ---------------------------------------------------------------- what a client asks for, and who money leaves */

/** The request types a client asks for themselves (every other type is an admin's entry). */
export const CLIENT_REQUEST_TYPES = [
  "deposit",
  "stock_deposit",
  "withdraw",
] as const satisfies readonly TransactionType[];

/**
 * A deposit seen on chain has no author (the watcher writes it) but is the client's money in, like their own
 * deposit request: its ledger key starts with this, followed by the asset, transaction and output.
 */
export const CHAIN_DEPOSIT_KEY_PREFIX = "chain:";

/** Whether a type is one a client asks for. */
export const isClientRequestType = (type: string) => (CLIENT_REQUEST_TYPES as readonly string[]).includes(type);

/**
 * Money leaves only for a verified client, whoever moves it: a client's withdrawal request, its approval, and a
 * withdrawal entry (a payout) all need the client's live identity-verification case (not ended) to be approved.
 */
export const VERIFIED_ONLY = {
  types: ["withdraw"],
  liveCaseStatus: "approved",
} as const satisfies { types: readonly TransactionType[]; liveCaseStatus: string };

/** Whether moving money of this type needs a verified client. */
export const needsVerifiedClient = (type: string) => (VERIFIED_ONLY.types as readonly string[]).includes(type);

/**
 * A withdrawal's payout recorded by its transaction id is accepted when it pays the withdrawal's address a value
 * within `tolerancePercent` of the amount at the USD rate of the check (the firm may take the network fee off, and
 * the price moves between payout and check). A transaction the chain's API has not shown `notFoundAfterMs` after it
 * was recorded is not accepted, nor an accepted one missing that long. An accepted payout is watched until it is
 * `watchedBlocksPastConfirmed` blocks past its chain's confirmations (a reorganisation deeper than those takes it out
 * of the client's view again).
 */
export const PAYOUT_MATCH = {
  tolerancePercent: 2,
  notFoundAfterMs: 6 * 60 * 60 * 1000,
  watchedBlocksPastConfirmed: 6,
} as const;

/* ---------------------------------------------------------------- cancelling */

/** What a client may cancel: a request of their own (the types a client asks for) while it waits for a decision. */
export const CANCELLABLE = {
  types: CLIENT_REQUEST_TYPES,
  statuses: ["pending"],
} as const satisfies { types: readonly TransactionType[]; statuses: readonly TransactionStatus[] };

export const isCancellable = (type: TransactionType) => (CANCELLABLE.types as readonly string[]).includes(type);

export const mayCancel = (type: TransactionType, status: TransactionStatus) =>
  isCancellable(type) && (CANCELLABLE.statuses as readonly string[]).includes(status);

/**
 * Whether a client's page offers Cancel on a row: a request they made themselves (`madeByClient`), of a type they
 * may cancel, still pending. A deposit seen on chain and held for review has no author: the desk decides it, and
 * the database refuses its cancel (transactions_cancel_own_requests_only).
 */
export const offersCancel = (row: {
  transactionType: TransactionType;
  status: TransactionStatus;
  madeByClient?: boolean;
}) => row.madeByClient === true && mayCancel(row.transactionType, row.status);

/** The cancel rule in SQL over a row's type and status columns. */
export function cancellableSql(typeSql = "transaction_type", statusSql = "status"): string {
  const list = (values: readonly string[]) => values.map(quote).join(", ");
  return `(${typeSql} IN (${list(CANCELLABLE.types)}) AND ${statusSql} IN (${list(CANCELLABLE.statuses)}))`;
}

/* ---------------------------------------------------------------- an admin's own acts add up (approval limits) */

/**
 * Four eyes looks at sums, not single acts: what one admin does alone over a rolling 24 hours adds up, so splitting
 * a large move into small ones does not get past a second admin. What counts is the admin's own approved acts: every
 * ledger entry they posted themselves (all types: each one moves the client's money) and every approval of a
 * withdrawal request they decided themselves. An act a second admin approved counts for neither admin (four eyes
 * saw it). `perClient` sums one client's acts and holds while the sum with this act stays below FOUR_EYES_THRESHOLD
 * (the single act's rule, "at or above waits"); `daily` sums every client's and holds while it stays within
 * ADMIN_DAILY_LIMIT. An act that breaks either becomes a proposal, with the reason.
 */
export const ADMIN_SUM_LIMITS = {
  perClient: { limit: "FOUR_EYES_THRESHOLD", scope: "client", holdsWhile: "below" },
  daily: { limit: "ADMIN_DAILY_LIMIT", scope: "allClients", holdsWhile: "within" },
} as const satisfies Record<string, { limit: AdminLimitName; scope: string; holdsWhile: "below" | "within" }>;

/**
 * The acts that add up: the request types whose approval counts (entries count whatever their type). A deposit's
 * approval credits money the client may then withdraw, like an entry, so splitting one into approvals under the
 * threshold must add up too.
 */
export const ADMIN_SUM_REQUEST_TYPES = [
  "withdraw",
  "deposit",
  "stock_deposit",
] as const satisfies readonly TransactionType[];

/** How far back an admin's acts add up. */
export const ADMIN_SUM_WINDOW_MS = 24 * 60 * 60 * 1000;

export type AdminLimitName = "FOUR_EYES_THRESHOLD" | "ADMIN_DAILY_LIMIT";
export type AdminLimits = Record<AdminLimitName, number>;
export type AdminSumLimit = keyof typeof ADMIN_SUM_LIMITS;

/** One act as the sums see it: a ledger row, and whether a second admin approved it (a proposal). */
export interface AdminAct {
  userId: string;
  kind: "entry" | "requestApproval";
  transactionType: TransactionType;
  status: TransactionStatus;
  amountCents: number;
  createdBy: string | null;
  decidedBy: string | null;
  decidedAt: number | null;
  approvedByProposal: boolean;
}

/** Whether an act counts toward `adminId`'s sums at `now` (the rule above, in TypeScript). */
export function countsTowardAdmin(act: AdminAct, adminId: string, now: number): boolean {
  const own =
    act.kind === "entry"
      ? act.createdBy === adminId
      : (ADMIN_SUM_REQUEST_TYPES as readonly string[]).includes(act.transactionType);
  return (
    own &&
    act.status === "approved" &&
    act.decidedBy === adminId &&
    act.decidedAt !== null &&
    act.decidedAt > now - ADMIN_SUM_WINDOW_MS &&
    !act.approvedByProposal
  );
}

/** What `adminId` has done alone in the window: for one client, and over all clients. */
export function adminSums(acts: AdminAct[], adminId: string, userId: string, now: number) {
  const counted = acts.filter((act) => countsTowardAdmin(act, adminId, now));
  const total = (list: AdminAct[]) => list.reduce((sum, act) => sum + act.amountCents, 0);
  return { perClient: total(counted.filter((act) => act.userId === userId)), daily: total(counted) };
}

/** The smallest sum, in cents, that breaks a limit. */
export function adminLimitBrokenFromCents(name: AdminSumLimit, limits: AdminLimits): number {
  const rule = ADMIN_SUM_LIMITS[name];
  return limits[rule.limit] * 100 + (rule.holdsWhile === "below" ? 0 : 1);
}

/** The first limit an act of `amountCents` would break on top of these sums, or null when it may be done alone. */
export function adminLimitBroken(
  sums: Record<AdminSumLimit, number>,
  amountCents: number,
  limits: AdminLimits,
): AdminSumLimit | null {
  const names = Object.keys(ADMIN_SUM_LIMITS) as AdminSumLimit[];
  return names.find((name) => sums[name] + amountCents >= adminLimitBrokenFromCents(name, limits)) ?? null;
}

/* ---------------------------------------------------------------- what a verification level allows */

/** The configured limits (whole US dollars), by their configuration names. */
export type LevelLimitName = "UNVERIFIED_DEPOSIT_LIMIT" | "WITHDRAWAL_LIMIT_DAY" | "WITHDRAWAL_LIMIT_MONTH";

/**
 * A client's level and their money: an unverified client's deposits (pending and approved, the `clientDeposits`
 * figure) stay within UNVERIFIED_DEPOSIT_LIMIT; a Restricted client (unverified past the deadline) asks for none;
 * only a verified client withdraws (asks, is approved, has an entry paid out), and within two rolling limits over
 * the withdrawals asked for (pending and approved) in the last 24 hours and 30 days.
 */
export const LEVEL_LIMITS = {
  unverifiedDeposits: { figure: "clientDeposits", limit: "UNVERIFIED_DEPOSIT_LIMIT", unlessVerified: true },
  withdrawalDay: { window: "day", limit: "WITHDRAWAL_LIMIT_DAY", counts: ["pending", "approved"] },
  withdrawalMonth: { window: "month", limit: "WITHDRAWAL_LIMIT_MONTH", counts: ["pending", "approved"] },
} as const;

/** A limit holds when what is already counted plus this amount stays within it. */
export const withinLimit = (countedCents: number, amountCents: number, limitDollars: number) =>
  countedCents + amountCents <= limitDollars * 100;

/** The unverified deposit limit in TypeScript: a verified client is not held by it. */
export function depositWithinLevel(
  limits: Pick<Record<LevelLimitName, number>, "UNVERIFIED_DEPOSIT_LIMIT">,
  verified: boolean,
  totals: LedgerTotals,
  amountCents: number,
): boolean {
  const rule = LEVEL_LIMITS.unverifiedDeposits;
  return (verified && rule.unlessVerified) || withinLimit(figure(totals, rule.figure), amountCents, limits[rule.limit]);
}
