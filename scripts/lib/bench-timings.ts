/**
 * The bench's one-at-a-time timings (scripts/bench.ts): downloads alone on the Worker, a statement PDF's build and
 * its kept copy, and the refusals whose time must not tell an attacker anything (sign-ins and registrations). They
 * are figures to read, never pass/fail tests: a timing on a shared machine is not a test.
 */
import type { Miniflare } from "miniflare";
import { BENCH_USERS } from "../bench-data.ts";

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** One download, alone on the Worker: milliseconds to the first body byte and to the last, and its size. */
export async function timeDownload(origin: string, path: string, cookie?: string) {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, { headers: cookie ? { Cookie: cookie } : {} });
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  let firstByte = 0;
  let bytes = 0;
  let lines = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    if (firstByte === 0) firstByte = performance.now() - started;
    bytes += chunk.value.length;
    for (const byte of chunk.value) if (byte === 10) lines++;
  }
  return { firstByte, total: performance.now() - started, bytes, rows: lines - 1 };
}

interface BenchRun {
  mf: Miniflare;
  d1: Awaited<ReturnType<Miniflare["getD1Database"]>>;
  origin: string;
  heavyCookie: string;
}

/**
 * A statement PDF of the heavy client's busiest closed month (about 830 rows): the first download builds and keeps
 * it, the second is the kept copy. Its kept copies are deleted first, so every run times a build.
 */
export async function timeStatementPdf({ mf, d1, origin, heavyCookie }: BenchRun) {
  const statements = await mf.getR2Bucket("STATEMENTS");
  const prefix = `statements/${BENCH_USERS.heavy}/`;
  for (const object of (await statements.list({ prefix })).objects) await statements.delete(object.key);
  const thisMonth = new Date().toISOString().slice(0, 7);
  const busiest = await d1
    .prepare(
      "SELECT strftime('%Y-%m', created_at / 1000, 'unixepoch') AS month, count(*) AS rows FROM transactions WHERE user_id = ? GROUP BY month HAVING month < ? ORDER BY rows DESC LIMIT 1",
    )
    .bind(BENCH_USERS.heavy, thisMonth)
    .first<{ month: string; rows: number }>();
  if (!busiest) throw new Error("the heavy client has no closed month");
  const first = await timeDownload(origin, `/statements/${busiest.month}.pdf`, heavyCookie);
  const second = await timeDownload(origin, `/statements/${busiest.month}.pdf`, heavyCookie);
  const kept = (await statements.list({ prefix })).objects.length;
  if (kept !== 1 || second.bytes !== first.bytes) throw new Error("the statement PDF was not kept");
  return {
    [`statement PDF ${busiest.month} (heavy)`]: {
      "rows made that month": busiest.rows,
      KiB: Math.round(first.bytes / 1024),
      "first download ms (build, keep)": Math.round(first.total),
      "second download ms (kept copy)": Math.round(second.total),
    },
  };
}

/** Within the per-account budget (10 failures in 15 minutes), so that every try is a plain refusal. */
const SIGN_IN_RUNS = 7;
/** Each timed form comes from an address of its own, so none counts towards another's budget. */
let address = 0;
const nextAddress = () => `198.51.100.${(++address % 250) + 1}`;

/** A form sent as the browser sends it: same-origin, from its own address; its status and milliseconds. */
async function timedPost(origin: string, path: string, fields: Record<string, string>) {
  const started = performance.now();
  const response = await fetch(`${origin}${path}`, {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Origin: origin,
      "Sec-Fetch-Site": "same-origin",
      "CF-Connecting-IP": nextAddress(),
    },
    body: new URLSearchParams(fields).toString(),
    redirect: "manual",
  });
  await response.arrayBuffer();
  return { status: response.status, ms: performance.now() - started };
}

/**
 * Refused sign-ins at production's password cost: a wrong password for an unknown e-mail and for an account that
 * has no password (the light client's, emptied for the run and put back) should take alike, so that the time does
 * not tell which e-mails have an account.
 */
export async function timeRefusedSignIns({ d1, origin }: BenchRun) {
  const light = await d1
    .prepare("SELECT email, password_hash FROM users WHERE id = ?")
    .bind(BENCH_USERS.light)
    .first<{ email: string; password_hash: string }>();
  if (!light) throw new Error("the light client is missing");
  const refusal = async (email: string) => {
    const { status, ms } = await timedPost(origin, "/login", { email, password: "a wrong password", redirectTo: "" });
    if (status !== 401) throw new Error(`a refused sign-in answered ${status}`);
    return ms;
  };
  await d1.prepare("UPDATE users SET password_hash = '' WHERE id = ?").bind(BENCH_USERS.light).run();
  try {
    // The throwaway hash an unknown e-mail is checked against is made at the first.
    await refusal("warm-up@bench.example");
    const unknown: number[] = [];
    const passwordless: number[] = [];
    for (let run = 0; run < SIGN_IN_RUNS; run++) {
      unknown.push(await refusal(`nobody-${run}@bench.example`));
      passwordless.push(await refusal(light.email));
    }
    return {
      [`refused sign-ins (median of ${SIGN_IN_RUNS})`]: {
        "unknown e-mail ms": Math.round(median(unknown)),
        "account without a password ms": Math.round(median(passwordless)),
        "ratio (without a password / unknown)": Number((median(passwordless) / median(unknown)).toFixed(2)),
      },
    };
  } finally {
    // The failures the tries recorded, so that the next run starts within every budget again.
    await d1
      .prepare("DELETE FROM auth_failures WHERE key = ? OR key LIKE '%@bench.example' OR key LIKE '198.51.100.%'")
      .bind(light.email)
      .run();
    await d1
      .prepare("UPDATE users SET password_hash = ? WHERE id = ?")
      .bind(light.password_hash, BENCH_USERS.light)
      .run();
  }
}

/**
 * Within the per-e-mail budget of registrations (5 an hour, the first included), so that the taken address is
 * refused as taken, not as too many.
 */
const REGISTRATION_RUNS = 4;

/**
 * Registrations at production's password cost: an address already registered is refused after the same work as a
 * new one (the password is hashed either way), so that the time does not tell which e-mails have an account. The
 * accounts made are deleted afterwards.
 */
export async function timeRegistrations({ d1, origin }: BenchRun) {
  // A domain of their own: the bench dataset's clients are all @bench.example.
  const domain = "timed-registration.example";
  const taken = `taken-${crypto.randomUUID().slice(0, 8)}@${domain}`;
  const register = (email: string) =>
    timedPost(origin, "/register", {
      email,
      password: "bench-pass-1",
      confirmPassword: "bench-pass-1",
      firstName: "Bench",
      lastName: "Timing",
      phoneNumber: "+44 20 7946 0000",
      username: `bench${crypto.randomUUID().slice(0, 8)}`,
      country: "United Kingdom",
      referralId: "",
      terms: "on",
    });
  try {
    const first = await register(taken);
    if (first.status !== 302) throw new Error(`a new registration answered ${first.status}`);
    const refusedTimes: number[] = [];
    const newTimes: number[] = [];
    for (let run = 0; run < REGISTRATION_RUNS; run++) {
      const refused = await register(taken);
      if (refused.status !== 409) throw new Error(`a taken address answered ${refused.status}`);
      refusedTimes.push(refused.ms);
      const fresh = await register(`new-${run}-${crypto.randomUUID().slice(0, 8)}@${domain}`);
      if (fresh.status !== 302) throw new Error(`a new registration answered ${fresh.status}`);
      newTimes.push(fresh.ms);
    }
    return {
      [`registrations (median of ${REGISTRATION_RUNS})`]: {
        "new e-mail ms": Math.round(median(newTimes)),
        "taken e-mail ms": Math.round(median(refusedTimes)),
        "ratio (taken / new)": Number((median(refusedTimes) / median(newTimes)).toFixed(2)),
      },
    };
  } finally {
    const pattern = `%@${domain}`;
    await d1.batch([
      d1.prepare("DELETE FROM email_outbox WHERE to_address LIKE ?").bind(pattern),
      d1.prepare("DELETE FROM auth_failures WHERE key LIKE ? OR key LIKE '198.51.100.%'").bind(pattern),
      d1.prepare("DELETE FROM profiles WHERE user_id IN (SELECT id FROM users WHERE email LIKE ?)").bind(pattern),
      d1.prepare("DELETE FROM users WHERE email LIKE ?").bind(pattern),
    ]);
  }
}
