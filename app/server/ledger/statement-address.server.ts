/**
 * What a statement's or a yearly summary's address names, for every route that shows or downloads one: the
 * signed-in client and the period, or a 404 saying why there is none (not a period, not begun, before 2000).
 */
import type { LoaderFunctionArgs } from "react-router";
import { STATEMENT_REFUSALS, SUMMARY_REFUSALS } from "~/lib/statement-month";
import { notFound } from "../http.server";
import { requireClient } from "../session.server";
import { type PeriodRefusal, parseStatementMonth } from "./statements.server";
import { parseSummaryYear } from "./yearly-summary.server";

type RouteArgs = Pick<LoaderFunctionArgs, "request" | "params" | "context">;

/** The client and the month of /statements/2026-10 (and its .csv, .pdf); `now` is the one the month was judged by. */
export async function requireStatementMonth({ request, params, context }: RouteArgs) {
  const user = await requireClient(request, context);
  const now = Date.now();
  return { user, now, period: periodOrNotFound(parseStatementMonth(params.month ?? "", now), STATEMENT_REFUSALS) };
}

/** The client and the year of /statements/year/2026 (and its .pdf). */
export async function requireSummaryYear({ request, params, context }: RouteArgs) {
  const user = await requireClient(request, context);
  const now = Date.now();
  return { user, now, year: periodOrNotFound(parseSummaryYear(params.year ?? "", now), SUMMARY_REFUSALS) };
}

function periodOrNotFound<Period extends object>(
  parsed: Period | PeriodRefusal,
  refusals: Record<PeriodRefusal, string>,
): Period {
  if (typeof parsed === "string") notFound(refusals[parsed]);
  return parsed;
}
