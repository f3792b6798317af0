import { env } from "cloudflare:workers";
import { expect } from "vitest";
import { accessRecoveryCancelToken } from "~/server/access-recovery/cancel-link.server";
import { SAMPLE_FILES, uploadTo } from "./documents";
import { appEnv, cookieFrom, createUser, getPage, postForm } from "./fixtures";
import { challengeCookieFrom, passwordStep } from "./two-factor";
import { markVerified } from "./verification-state";

/**
 * Access recovery as a client goes through it (docs/product.md, "Access recovery"): the password step, the request
 * started from the second step, the two photos, the request sent. Each step returns what the next needs.
 */

export const photo = (kind: "identity_photo" | "selfie", cookie: string | undefined, body = SAMPLE_FILES.jpeg) =>
  uploadTo(`/login/recovery/files/${kind}`, cookie, new Uint8Array(body), { fileName: `${kind}.jpg` });

/** A verified client with two-factor sign-in on (an authenticator app), as createUser makes one. */
export async function verifiedClientWithTwoFactor() {
  const client = await createUser({ twoFactor: true, firstName: "Robin" });
  await markVerified(client.id);
  return client;
}

/** The password step's browser: the challenge cookie of the second step. */
export async function afterPassword(email: string): Promise<string> {
  const step = await passwordStep(email);
  expect(step.headers.get("Location")).toBe("/login/two-factor");
  return challengeCookieFrom(step);
}

/** Starts a request in the browser that passed the password step; the cookie that follows it. */
export async function startedRequest(email: string): Promise<string> {
  const started = await postForm("/login/recovery", { intent: "start" }, { cookie: await afterPassword(email) });
  expect(started.status, await started.clone().text()).toBe(302);
  const cookie = cookieFrom(started, "access-recovery");
  expect(cookie).not.toBe("");
  return cookie;
}

/** A request with both photos, sent to compliance: its id and the browser's cookie. */
export async function submittedRequest(email: string): Promise<{ id: number; cookie: string }> {
  const cookie = await startedRequest(email);
  for (const kind of ["identity_photo", "selfie"] as const) expect((await photo(kind, cookie)).status).toBe(200);
  const sent = await postForm("/login/recovery", { intent: "submit" }, { cookie });
  expect(sent.status).toBe(302);
  return { id: await requestIdOf(email), cookie };
}

export async function requestIdOf(email: string): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT r.id FROM access_recovery_requests r JOIN users u ON u.id = r.user_id WHERE u.email = ? ORDER BY r.id DESC",
  )
    .bind(email.toLowerCase())
    .first<{ id: number }>();
  return row?.id ?? 0;
}

export async function statusOf(requestId: number): Promise<string | null> {
  const row = await env.DB.prepare("SELECT status FROM access_recovery_requests WHERE id = ?")
    .bind(requestId)
    .first<{ status: string }>();
  return row?.status ?? null;
}

/** A submitted request of a fresh verified client, for the back office's tests: its id. */
export async function waitingRecovery(): Promise<number> {
  const client = await verifiedClientWithTwoFactor();
  return (await submittedRequest(client.email)).id;
}

/** Moves a request's sending back past the day its second approval waits for. */
export async function sentADayAgo(requestId: number) {
  await env.DB.prepare("UPDATE access_recovery_requests SET submitted_at = ? WHERE id = ?")
    .bind(Date.now() - 25 * 3_600_000, requestId)
    .run();
}

/**
 * The same request after a first approval by `adminId` (an admin of the access-recovery roles), sent more than a day
 * ago: ready for its second approval.
 */
export async function firstApprovedRecovery(adminId: string): Promise<number> {
  const id = await waitingRecovery();
  await sentADayAgo(id);
  await env.DB.prepare(
    "UPDATE access_recovery_requests SET status = 'first_approved', first_approved_by = ?, first_approved_at = ? WHERE id = ?",
  )
    .bind(adminId, Date.now(), id)
    .run();
  return id;
}

/** The cancel link's token a mail about this request carries. */
export const cancelTokenOf = (requestId: number, ownerId: string) =>
  accessRecoveryCancelToken.sign(appEnv.SESSION_SECRET, requestId, ownerId);

export const recoveryPage = (cookie: string) => getPage("/login/recovery", cookie);
