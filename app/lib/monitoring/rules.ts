/**
 * Transaction monitoring's rule table (docs/product.md, "Transaction monitoring"): each rule's name, window and
 * fractions, and the words its alert shows. Browser-safe: the queue renders the words from an alert's stored
 * detail; the server's queries (app/server/monitoring) take their windows and fractions from here.
 */
import type { MonitoringRule } from "../../../db/enums";
import { formatCents } from "../format";

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

/** The configured thresholds a rule reads (whole dollars and a count, as the env gives them). */
export interface MonitoringThresholds {
  largeAmountCents: number;
  velocityCount: number;
}

export const MONITORING_WINDOWS = {
  /** Structuring: the requests of the last 7 days, the trigger's included. */
  structuring: 7 * DAY,
  /** Velocity: the requests of the last 24 hours, the trigger's included. */
  velocity: DAY,
  /** Rapid in and out: a withdrawal within 48 hours of a deposit's approval. */
  rapidInOut: 48 * HOUR,
  /** New destination: a withdrawal within 72 hours of a security change. */
  securityChange: 72 * HOUR,
  /** Dormant: no ledger row in the 180 days before the withdrawal. */
  dormancy: 180 * DAY,
} as const;

/**
 * Percentages, kept whole so the SQL compares integers: a structuring request "just under" the large amount is at
 * least 80% of it.
 */
export const STRUCTURING_BAND_PERCENT = 80;
/** A rapid-out withdrawal takes at least 80% of the deposit it follows. */
export const RAPID_OUT_PERCENT = 80;
/** Structuring needs at least this many requests in its window. */
export const STRUCTURING_MIN_REQUESTS = 3;

export const MONITORING_RULE_NAMES: Record<MonitoringRule, string> = {
  large_transaction: "Large single transaction",
  structuring: "Structuring",
  velocity: "Velocity",
  rapid_in_out: "Rapid in and out",
  new_destination_after_security_change: "New destination after a security change",
  dormant_account: "Dormant account awakens",
};

/** What each rule's query stores in `detail`: the involved transactions' ids and the figures of the words. */
export interface AlertDetail {
  transactionIds: number[];
  kind?: "deposit" | "withdrawal" | "request";
  count?: number;
  amountCents?: number;
  totalCents?: number;
  minCents?: number;
  maxCents?: number;
  spanMs?: number;
  thresholdCents?: number;
  /** Structuring: the requests just under the threshold among them (absent from alerts written before they were). */
  nearCount?: number;
  nearTotalCents?: number;
  nearMinCents?: number | null;
  nearMaxCents?: number | null;
  nearKind?: AlertDetail["kind"];
  /** Velocity: the configured count the requests passed. */
  limit?: number;
  depositCents?: number;
  event?: string;
  idleDays?: number;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;
const days = (ms: number) => Math.max(1, Math.ceil(ms / DAY));
const hours = (ms: number) => Math.max(1, Math.ceil(ms / HOUR));
const kindWord = (kind: AlertDetail["kind"]) => kind ?? "request";

const SECURITY_EVENTS: Record<string, string> = {
  password_changed: "a password change",
  two_factor_on: "two-factor sign-in turned on",
  two_factor_off: "two-factor sign-in turned off",
  provider_linked: "a new provider link",
  new_browser: "a sign-in from a new browser",
};

const isJustUnder = (cents: number, thresholdCents: number) => cents * 100 >= thresholdCents * STRUCTURING_BAND_PERCENT;

/**
 * Structuring's words: when every request is just under the threshold, their range; otherwise the ones just under it
 * first (how many, their range and total), since they are the pattern the rule is named for, then the whole window.
 */
function structuringWords(d: AlertDetail): string {
  const threshold = formatCents(d.thresholdCents ?? 0);
  const whole = `${plural(d.count ?? 0, kindWord(d.kind))} in ${plural(days(d.spanMs ?? 0), "day")}`;
  if (isJustUnder(d.minCents ?? 0, d.thresholdCents ?? 0))
    return `${whole}, each between ${formatCents(d.minCents ?? 0)} and ${formatCents(d.maxCents ?? 0)} (just under ${threshold})`;
  const total = `totalling ${formatCents(d.totalCents ?? 0)}`;
  const near = d.nearCount ?? 0;
  if (near === 0) return `${whole} ${total}, each below ${threshold}`;
  const nearMin = formatCents(d.nearMinCents ?? 0);
  const nearWords =
    near === 1
      ? `1 ${kindWord(d.nearKind)} just under ${threshold} (${nearMin})`
      : `${plural(near, kindWord(d.nearKind))} just under ${threshold} (between ${nearMin} and ${formatCents(d.nearMaxCents ?? 0)}) totalling ${formatCents(d.nearTotalCents ?? 0)}`;
  return `${nearWords}, among ${whole} ${total}`;
}

/** Why an alert fired, in words ('3 deposits in 6 days, each between $8,000.00 and $10,000.00'). */
export function alertWords(rule: MonitoringRule, d: AlertDetail): string {
  const amount = formatCents(d.amountCents ?? 0);
  switch (rule) {
    case "large_transaction":
      return `A ${kindWord(d.kind)} of ${amount}, at or above ${formatCents(d.thresholdCents ?? 0)}`;
    case "structuring":
      return structuringWords(d);
    case "velocity":
      // A velocity alert that grew past its first 24 hours says how long the run of requests has lasted.
      return (d.spanMs ?? 0) <= DAY
        ? `${plural(d.count ?? 0, "request")} in 24 hours (more than ${d.limit ?? 0})`
        : `${plural(d.count ?? 0, "request")} in ${plural(days(d.spanMs ?? 0), "day")} (more than ${d.limit ?? 0} within 24 hours)`;
    case "rapid_in_out":
      return `A withdrawal of ${amount} ${plural(hours(d.spanMs ?? 0), "hour")} after a deposit of ${formatCents(d.depositCents ?? 0)} was approved`;
    case "new_destination_after_security_change":
      return `A withdrawal of ${amount} to a new address ${plural(hours(d.spanMs ?? 0), "hour")} after ${SECURITY_EVENTS[d.event ?? ""] ?? "a security change"}`;
    case "dormant_account":
      return `A withdrawal of ${amount} after ${plural(d.idleDays ?? 0, "day")} without activity`;
  }
}
