// @ts-ignore -- React Router's server build: served by Vite in `vite dev`; outside Vite (wrangler, the Workers test
// pool) an alias names build/server/index.js, which `npm run build` writes.
import * as serverBuild from "virtual:react-router/server-build";
import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { createRequestHandler, type ServerBuild } from "react-router";
import { routerContext } from "../app/load-context";
import { purgeExpiredNotes } from "../app/server/admin/notes.server";
import { expireProposals } from "../app/server/admin/proposal-expiry.server";
import { archiveOldAuditRows } from "../app/server/audit-archive.server";
import { pruneDeadSessions, pruneSignInEvents } from "../app/server/auth/account-sessions.server";
import { edgeLocation } from "../app/server/auth/client-meta.server";
import { runChainWatcher } from "../app/server/chain/watcher.server";
import { createDb } from "../app/server/db.server";
import { readAppEnv } from "../app/server/env.server";
import { archiveDeliveredMail } from "../app/server/mail/archive.server";
import { removeOldArchivedMailRows } from "../app/server/mail/old-rows.server";
import { deliverDueEmails, deliverInBackground } from "../app/server/mail/outbox.server";
import { evaluateRecentRequests } from "../app/server/monitoring/evaluate.server";
import { pruneOldNotifications } from "../app/server/notifications/notifications.server";
import { pruneAttempts } from "../app/server/rate-limit.server";
import { publishToDesk } from "../app/server/realtime.server";
import { sendVerificationDeadlineMails } from "../app/server/verification/deadline.server";
import { purgeExpiredVerifications } from "../app/server/verification/retention.server";
import { csrfProtection } from "./middleware/csrf";
import { edgeCache } from "./middleware/edge-cache";
import { privateWhenSignedIn } from "./middleware/private-when-signed-in";
import { requestContext } from "./middleware/request-context";
import { cspNonce, securityHeaders } from "./middleware/security-headers";
import { health } from "./routes/health";
import { mailApi } from "./routes/mail-api";
import { websockets } from "./routes/websockets";
import type { AppBindings } from "./types";

export { AdminDesk, ClientFeed } from "./realtime/feed-object";

const build = serverBuild as unknown as ServerBuild;
// Created once per isolate: building the route tree on every request would cost each request.
const handleRouterRequest = createRequestHandler(build);

const app = new Hono<AppBindings>();

// Outermost, so that every response carries the security headers, an error page included.
app.use(securityHeaders());
app.use(csrfProtection());
// Public pages for visitors, before the database is opened; a deploy changes the key (`build.assets.version`).
// Under `vite dev` that version stays the same across edits, while every edit evaluates this module again: a new
// key per evaluation, so that an edited page is not answered from the cache.
const buildId = import.meta.hot ? `${build.assets.version}.${Math.random()}` : build.assets.version;
app.use(
  edgeCache({
    buildId,
    renderAgain: (request, bindings, ctx) => Promise.resolve(app.fetch(request, bindings, ctx)),
  }),
);
app.use(requestContext());
app.use(privateWhenSignedIn());
app.route("/healthz", health);
app.route("/api", mailApi);
app.route("/ws", websockets);
app.all("*", (c) =>
  handleRouterRequest(
    c.req.raw,
    routerContext({
      db: c.var.db,
      env: c.var.env,
      bindings: c.env,
      ctx: c.executionCtx as ExecutionContext,
      cspNonce: cspNonce(c),
      cf: edgeLocation(c.req.raw, c.var.env) ?? null,
    }),
  ),
);

app.onError((error, c) => {
  // A middleware's deliberate answer (bearer auth's 401, for one) is a response, not a failure.
  if (error instanceof HTTPException) return error.getResponse();
  console.error(`${c.req.method} ${new URL(c.req.url).pathname} failed:`, error);
  const wantsJson = c.req.path.startsWith("/api/") || c.req.header("Accept")?.includes("application/json");
  return wantsJson
    ? c.json({ error: "Internal server error" }, 500)
    : c.text("Something went wrong on our side. Please try again.", 500);
});

/**
 * Cron trigger (every minute): deliver the outbox rows that are due, expire proposals nobody decided in time,
 * drop expired rate-limit records, sessions that are no longer alive, and sign-in records and notifications past
 * their keeping time, mail the identity-verification reminders and restriction notices that are due, purge
 * verification evidence past its retention, archive delivered mail older than 30 days (its compact rows and audit rows
 * leave D1 13 months on), and run the transaction-monitoring rules over the last 24 hours' requests. The dated jobs run at the trigger's own time (`scheduledTime`), so a test can fix it.
 */
const scheduled: ExportedHandlerScheduledHandler<AppBindings["Bindings"]> = (controller, bindings, ctx) => {
  // The cron writes (and reads to decide its writes): at the primary, like an action.
  const db = createDb(bindings.DB.withSession("first-primary"));
  const env = readAppEnv(bindings);
  ctx.waitUntil(
    deliverDueEmails(db, env).then((outcomes) => {
      // Quiet when there was nothing to do: the cron runs every minute.
      if (Object.values(outcomes).some((count) => count > 0)) console.log("outbox", outcomes);
    }),
  );
  ctx.waitUntil(
    expireProposals(db).then(({ expired, emailIds }) => {
      if (expired === 0) return;
      // The proposers' mails go out now rather than at the next run; the desk's card drops them.
      deliverInBackground(ctx, db, env, emailIds);
      publishToDesk({ bindings, ctx }, { type: "proposal.changed" });
    }),
  );
  ctx.waitUntil(pruneAttempts(db).run());
  ctx.waitUntil(pruneDeadSessions(db).run());
  ctx.waitUntil(pruneSignInEvents(db).run());
  ctx.waitUntil(pruneOldNotifications(db, controller.scheduledTime).run());
  ctx.waitUntil(
    sendVerificationDeadlineMails(db, env, controller.scheduledTime).then((emailIds) =>
      deliverInBackground(ctx, db, env, emailIds),
    ),
  );
  ctx.waitUntil(purgeExpiredVerifications(db, bindings.DOCUMENTS, controller.scheduledTime));
  ctx.waitUntil(purgeExpiredNotes(db, controller.scheduledTime));
  // Delivered mail's bodies leave D1 30 days after it was queued, for the mail archive (docs/decisions/0075).
  ctx.waitUntil(
    archiveDeliveredMail(db, bindings.MAIL_ARCHIVE, controller.scheduledTime).then((archived) => {
      if (archived > 0) console.log("mail archive", archived);
    }),
  );
  // Archived mail's compact rows leave D1 once their month ended 13 months ago (docs/decisions/0075, its update).
  ctx.waitUntil(
    removeOldArchivedMailRows(db, bindings.MAIL_ARCHIVE, controller.scheduledTime).then(({ emptied, removed }) => {
      if (emptied > 0) console.log("mail rows left D1", removed, "from archive objects", emptied);
    }),
  );
  // Audit rows leave D1 for the audit archive once their month ended 13 months ago (docs/decisions/0077).
  ctx.waitUntil(
    archiveOldAuditRows(db, bindings.AUDIT_ARCHIVE, controller.scheduledTime).then((archived) => {
      if (archived > 0) console.log("audit archive", archived);
    }),
  );
  // Deposits on chain: new blocks read, payments confirmed, credited or held (docs/decisions/0067).
  ctx.waitUntil(
    runChainWatcher({ db, env, bindings, ctx }).then((runs) => {
      for (const run of runs) {
        if (run.error) console.error(`chain watcher: ${run.network}: ${run.error}`);
        else if (run.credited + run.held > 0) console.log("chain watcher", run.network, run.credited, run.held);
      }
    }),
  );
  ctx.waitUntil(
    evaluateRecentRequests(db, env, controller.scheduledTime).then((written) => {
      if (written > 0) publishToDesk({ bindings, ctx }, { type: "alerts.changed" });
    }),
  );
};

export default { fetch: app.fetch, scheduled } satisfies ExportedHandler<AppBindings["Bindings"]>;
