/**
 * A local stand-in for Resend's HTTP API, for `npm run dev` and the outage drill (scripts/mail-outage.ts). It speaks
 * the one call the outbox makes (`POST /emails`, app/server/mail/outbox.server.ts) as Resend answers it: a Bearer key
 * (401 without one, 403 for one not starting with `re_`), the fields checked (422), and the Idempotency-Key honoured
 * for 24 hours (a repeat answers the first id and sends nothing; the same key with another message is a 409).
 *
 * It can be told to fail: `fail` answers every mail with a 5xx, as an outage does; `drop` closes the connection
 * unanswered, a network error. It keeps what it accepted in memory. Control at `/_simulator` (scripts/mail.ts:
 * `npm run mail -- fail | drop | ok | status | clear`); it listens on loopback only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type SimulatorMode = "ok" | "fail" | "drop";

export interface AcceptedMail {
  id: string;
  idempotencyKey: string | null;
  from: string;
  to: string[];
  subject: string;
  acceptedAt: number;
}

export interface SimulatorState {
  mode: SimulatorMode;
  /** The status `fail` answers with. */
  failStatus: number;
  accepted: AcceptedMail[];
  /** Requests answered with the first answer of their Idempotency-Key: nothing sent again. */
  replays: number;
  /** Mails answered with an error or dropped, whatever the reason. */
  refused: number;
}

export interface MailSimulator {
  /** `http://127.0.0.1:<port>`: what RESEND_BASE_URL is set to. */
  readonly url: string;
  readonly state: SimulatorState;
  setMode(mode: SimulatorMode, failStatus?: number): void;
  /** Forgets every mail, key and count; the mode stays. */
  clear(): void;
  close(): Promise<void>;
}

/** Resend answers a repeated Idempotency-Key with its first answer for this long. */
export const IDEMPOTENCY_MS = 24 * 60 * 60_000;
const CONTROL = "/_simulator";

/** Where `npm run dev` runs its simulator: MAIL_SIMULATOR_PORT, else the dev server's port (PORT, 8787) + 1000. */
export function mailSimulatorPort(environment: NodeJS.ProcessEnv = process.env): number {
  const port = Number(environment.MAIL_SIMULATOR_PORT || Number(environment.PORT || 8787) + 1000);
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`The mail simulator's port would be ${port}: set MAIL_SIMULATOR_PORT to a free port.`);
  }
  return port;
}

const isLoopback = (url: string) => /^http:\/\/(127\.0\.0\.1|localhost|\[::1\])(:\d+)?\/?$/.test(url.trim());

/** The key `.dev.vars.example` gives the app locally: the simulator takes any key starting with `re_`. */
export const SIMULATOR_API_KEY = "re_local_simulator";

/**
 * The variable `npm run dev` adds to the Worker's config so the app mails its simulator: the address, unless .dev.vars
 * names one that is not on this machine (someone sending for real). Only a name .dev.vars leaves out can be set this
 * way (the Vite plugin reads .dev.vars over the config), which is why .dev.vars holds the key and no local address
 * (`upgradeMailSettings`).
 */
export function simulatorSettings(devVars: { baseUrl?: string }, simulatorUrl: string): { RESEND_BASE_URL?: string } {
  if (devVars.baseUrl && !isLoopback(devVars.baseUrl)) return {};
  return { RESEND_BASE_URL: simulatorUrl };
}

/**
 * The text of a .dev.vars written by an older `npm run dev`, with its mail settings as the simulator needs them now:
 * a local RESEND_BASE_URL goes (it named port 9787, while the simulator's port follows PORT, and a value in .dev.vars
 * would win over the one dev sets), and an empty RESEND_API_KEY beside it becomes the simulator's key (the outbox
 * captures mail without one). A provider off this machine leaves both lines as they are.
 */
export function upgradeMailSettings(text: string): string {
  const lines = text.split("\n");
  const url = lines.find((line) => line.startsWith("RESEND_BASE_URL="))?.slice("RESEND_BASE_URL=".length);
  if (url && !isLoopback(url)) return text;
  return lines
    .filter((line) => !line.startsWith("RESEND_BASE_URL="))
    .map((line) => (line.trim() === "RESEND_API_KEY=" ? `RESEND_API_KEY=${SIMULATOR_API_KEY}` : line))
    .join("\n");
}

/** Resend's error body. */
function refuse(response: ServerResponse, status: number, name: string, message: string) {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify({ statusCode: status, name, message }));
}

const answer = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
};

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** What is wrong with a mail, in Resend's words, or null. */
function problemOf(mail: Record<string, unknown>): string | null {
  const to = typeof mail.to === "string" ? [mail.to] : mail.to;
  if (typeof mail.from !== "string" || mail.from === "") return "Missing `from` field.";
  if (
    !Array.isArray(to) ||
    to.length === 0 ||
    to.length > 50 ||
    !to.every((a) => typeof a === "string" && a.includes("@"))
  ) {
    return "Invalid `to` field.";
  }
  if (typeof mail.subject !== "string" || mail.subject === "") return "Missing `subject` field.";
  if (typeof mail.html !== "string" && typeof mail.text !== "string") return "Missing `html` or `text` field.";
  return null;
}

/**
 * Starts a simulator on `port` (0: any free one). `clock` is its idea of now, for the 24 hours of an Idempotency-Key
 * (the drill runs on simulated time); `log` gets one line per mail.
 */
export async function startMailSimulator(
  options: { port?: number; clock?: () => number; log?: (line: string) => void } = {},
): Promise<MailSimulator> {
  const clock = options.clock ?? Date.now;
  const log = options.log ?? (() => {});
  const state: SimulatorState = { mode: "ok", failStatus: 503, accepted: [], replays: 0, refused: 0 };
  /** Idempotency-Key → the message it came with, and the first answer's id. */
  let keys = new Map<string, { message: string; id: string; at: number }>();

  async function mail(request: IncomingMessage, response: ServerResponse) {
    const key = request.headers["idempotency-key"]?.toString() ?? null;
    const label = key ?? "a mail";
    if (state.mode === "drop") {
      state.refused++;
      log(`mail simulator: dropped ${label} (npm run mail -- ok ends it)`);
      request.socket.destroy();
      return;
    }
    const message = await bodyOf(request);
    const refused = (status: number, name: string, text: string) => {
      state.refused++;
      log(`mail simulator: refused ${label}: ${status} ${text}`);
      refuse(response, status, name, text);
    };
    if (state.mode === "fail") {
      return refused(
        state.failStatus,
        "application_error",
        "The mail simulator is failing on purpose (npm run mail -- ok).",
      );
    }
    const bearer = /^Bearer (\S+)$/.exec(request.headers.authorization ?? "")?.[1];
    if (!bearer) return refused(401, "missing_api_key", "Missing API key in the authorization header");
    if (!bearer.startsWith("re_")) return refused(403, "invalid_api_key", "API key is invalid");
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(message) as Record<string, unknown>;
    } catch {
      return refused(422, "validation_error", "The body is not JSON.");
    }
    const problem = problemOf(parsed);
    if (problem) return refused(422, "validation_error", problem);

    const now = clock();
    const earlier = key ? keys.get(key) : undefined;
    if (earlier && now - earlier.at < IDEMPOTENCY_MS) {
      if (earlier.message !== message) {
        return refused(
          409,
          "invalid_idempotent_request",
          "Same idempotency key used with a different request payload.",
        );
      }
      state.replays++;
      log(`mail simulator: ${label} again: answered ${earlier.id}, not sent twice`);
      return answer(response, 200, { id: earlier.id });
    }
    const id = crypto.randomUUID();
    if (key) keys.set(key, { message, id, at: now });
    const to = typeof parsed.to === "string" ? [parsed.to] : (parsed.to as string[]);
    state.accepted.push({
      id,
      idempotencyKey: key,
      from: String(parsed.from),
      to,
      subject: String(parsed.subject),
      acceptedAt: now,
    });
    log(`mail simulator: accepted ${label} to ${to.join(", ")}: ${String(parsed.subject)}`);
    answer(response, 200, { id });
  }

  const summary = () => ({ ...state, accepted: state.accepted.length, mails: state.accepted });
  const simulator: Omit<MailSimulator, "url"> = {
    state,
    setMode(mode, failStatus = 503) {
      state.mode = mode;
      state.failStatus = failStatus;
    },
    clear() {
      state.accepted = [];
      state.replays = 0;
      state.refused = 0;
      keys = new Map();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };

  function control(request: IncomingMessage, response: ServerResponse, action: string, url: URL) {
    if (request.method === "GET" && action === "") return answer(response, 200, summary());
    if (request.method !== "POST") return answer(response, 405, { error: "POST to change, GET to read" });
    if (action === "/ok" || action === "/drop") simulator.setMode(action === "/ok" ? "ok" : "drop");
    else if (action === "/fail") {
      const status = Number(url.searchParams.get("status") ?? 503);
      if (!Number.isInteger(status) || status < 500 || status > 599) {
        return answer(response, 400, { error: "A failing provider answers a 5xx: status must be 500 to 599." });
      }
      simulator.setMode("fail", status);
    } else if (action === "/clear") simulator.clear();
    else return answer(response, 404, { error: `Unknown control ${action}: ok, fail, drop, clear` });
    log(`mail simulator: ${state.mode}${state.mode === "fail" ? ` (${state.failStatus})` : ""}`);
    answer(response, 200, summary());
  }

  const server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const handled =
      url.pathname === "/emails" && request.method === "POST"
        ? mail(request, response)
        : url.pathname === CONTROL || url.pathname.startsWith(`${CONTROL}/`)
          ? control(request, response, url.pathname.slice(CONTROL.length), url)
          : refuse(response, 404, "not_found", `The mail simulator has no ${request.method} ${url.pathname}.`);
    Promise.resolve(handled).catch((error: unknown) => {
      if (!response.headersSent) refuse(response, 500, "application_error", String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return { ...simulator, url: `http://127.0.0.1:${port}` };
}
