/**
 * What happens after a command's batch has committed, in one place for every command: the notices it
 * enqueued are delivered and the realtime feeds hear about the rows it wrote, both in the background
 * (`waitUntil`), so the answer never waits for the mail provider or a socket; a client's new request is judged
 * by the transaction-monitoring rules, in the background too. D1 stays the truth: a lost
 * event or a failed delivery is caught up later (pages reload from D1, the cron retries the outbox).
 */
import type { FeedEvent } from "~/lib/realtime";
import type { CommandContext } from "./command-context.server";
import { deliverInBackground } from "./mail/outbox.server";
import { monitorInBackground } from "./monitoring/evaluate.server";
import { disconnectSession, disconnectUser, publish, publishToDesk } from "./realtime.server";

export type { CommandContext };

interface AfterCommit {
  /** Outbox rows the batch enqueued. */
  emailIds?: number[];
  /** Feed events about the rows the batch wrote, for the owner's feed and the admin desk. */
  events?: Array<{ userId: string; event: FeedEvent }>;
  /** Events for the admin desk alone (a proposal changed, a case was sent): none of a client's business. */
  deskEvents?: FeedEvent[];
  /** Users whose sessions the batch ended, all of them: their open sockets close too. */
  signedOut?: string[];
  /** One session that ended (a sign-out): only its sockets close. */
  endedSession?: { userId: string; sessionId: string };
  /** Several sessions that ended while others of the same user stay (End all others, a password change). */
  endedSessions?: Array<{ userId: string; sessionId: string }>;
  /** A client's deposit or withdrawal request the batch wrote: the monitoring rules judge it. */
  monitorTransactionId?: number;
}

export function afterCommit(context: CommandContext, effects: AfterCommit): void {
  if (effects.emailIds?.length) deliverInBackground(context.ctx, context.db, context.env, effects.emailIds);
  for (const { userId, event } of effects.events ?? []) publish(context, userId, event);
  for (const event of effects.deskEvents ?? []) publishToDesk(context, event);
  for (const userId of effects.signedOut ?? []) disconnectUser(context, userId);
  if (effects.endedSession) disconnectSession(context, effects.endedSession.userId, effects.endedSession.sessionId);
  for (const { userId, sessionId } of effects.endedSessions ?? []) disconnectSession(context, userId, sessionId);
  if (effects.monitorTransactionId) monitorInBackground(context, effects.monitorTransactionId);
}

/**
 * The one shape of an answer. A domain rule's `Result`: done (with what the caller needs) or refused with the
 * message to show. A command's `Outcome` adds the HTTP status the page answers a refusal with.
 */
export type Result<T extends object = object> = ({ ok: true } & T) | { ok: false; error: string };
export type Outcome<T extends object = object> = ({ ok: true } & T) | { ok: false; error: string; status: number };

/**
 * What a form's command answers a page: done, with the message to show, or refused with the HTTP status and,
 * when the refusal is about one field, that field (and, for an act on one row of a list, that row's id). Pages
 * take all of it from here: none compares a message's text to choose a status.
 */
export type FormOutcome =
  | { ok: true; message: string }
  | { ok: false; error: string; status: number; field?: string; subject?: string };
