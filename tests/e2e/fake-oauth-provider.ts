import { createHash, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { FAKE_PROVIDER_CLIENTS as CLIENTS, FAKE_PROVIDER_PORT } from "../../scripts/lib/fake-oauth-settings.ts";

export { FAKE_PROVIDER_PORT };

/**
 * Google and GitHub as the browser tests need them: a loopback server the app reaches through
 * `OAUTH_TEST_ENDPOINTS` (scripts/lib/fake-oauth-settings.ts), each provider's endpoint at "/{its host}{its path}".
 * Its sign-in page asks who signs in (the test fills it in, so tests in parallel never share a person), and it checks
 * what a real provider would: the client's credentials, the redirect URI, the single-use code and, for Google, the
 * PKCE verifier against its challenge. One server for the whole run: tests/e2e/global-setup.ts.
 */
export interface FakePerson {
  /** Google's `sub`, GitHub's numeric id. */
  id: string;
  email: string;
  name: string;
}

interface Grant {
  provider: "google" | "github";
  person: FakePerson;
  redirectUri: string;
  challenge: string | null;
}

const escapeHtml = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
const base64url = (bytes: Buffer) => bytes.toString("base64url");
const unsignedJwt = (claims: object) =>
  [{ alg: "RS256", typ: "JWT" }, claims].map((part) => base64url(Buffer.from(JSON.stringify(part)))).join(".") +
  ".c2lnbmF0dXJl";

async function formOf(request: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function clientOf(request: IncomingMessage) {
  const basic = /^Basic (.+)$/.exec(request.headers.authorization ?? "")?.[1];
  return basic ? Buffer.from(basic, "base64").toString("utf8") : "";
}

const json = (response: ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "Content-Type": "application/json" });
  response.end(JSON.stringify(body));
};

export class FakeOAuthProvider {
  private grants = new Map<string, Grant>();
  private tokens = new Map<string, FakePerson>();
  private server: Server | null = null;

  start(): Promise<void> {
    this.server = createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        response.writeHead(500);
        response.end(String(error));
      });
    });
    return new Promise((resolve, reject) => {
      this.server?.once("error", reject);
      this.server?.listen(FAKE_PROVIDER_PORT, "127.0.0.1", () => resolve());
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse) {
    const url = new URL(request.url ?? "/", `http://127.0.0.1:${FAKE_PROVIDER_PORT}`);
    switch (`${request.method} ${url.pathname}`) {
      case "GET /accounts.google.com/o/oauth2/v2/auth":
        return this.signInPage(url, response, "google");
      case "GET /github.com/login/oauth/authorize":
        return this.signInPage(url, response, "github");
      case "POST /consent":
        return this.consent(await formOf(request), response);
      case "POST /oauth2.googleapis.com/token":
        return this.googleToken(request, response);
      case "POST /github.com/login/oauth/access_token":
        return this.githubToken(request, response);
      case "GET /api.github.com/user":
      case "GET /api.github.com/user/emails":
        return this.githubApi(request, response, url.pathname.endsWith("/emails"));
      default:
        response.writeHead(404);
        response.end("not a fake endpoint");
    }
  }

  /** The provider's sign-in page: who signs in, then Allow (back with a fresh code) or Deny. */
  private signInPage(url: URL, response: ServerResponse, provider: "google" | "github") {
    const redirectUri = url.searchParams.get("redirect_uri") ?? "";
    const state = url.searchParams.get("state") ?? "";
    if (url.searchParams.get("client_id") !== CLIENTS[provider].id || !redirectUri.startsWith("http://127.0.0.1:")) {
      response.writeHead(400);
      response.end("unknown client or redirect URI");
      return;
    }
    const denied = new URL(redirectUri);
    denied.searchParams.set("error", "access_denied");
    denied.searchParams.set("state", state);
    const hidden = {
      provider,
      redirect_uri: redirectUri,
      state,
      code_challenge: url.searchParams.get("code_challenge") ?? "",
    };
    const label = provider === "google" ? "Google" : "GitHub";
    response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
    response.end(`<!doctype html><html lang="en"><title>Fake ${label}</title><main><h1>Fake ${label}</h1>
      <form method="post" action="/consent">
        ${Object.entries(hidden)
          .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
          .join("")}
        <label>Account id <input name="id" required></label>
        <label>Email <input name="email" type="email" required></label>
        <label>Name <input name="name"></label>
        <button>Allow</button>
      </form>
      <a href="${escapeHtml(denied.href)}">Deny</a></main></html>`);
  }

  private consent(form: URLSearchParams, response: ServerResponse) {
    const provider = form.get("provider") === "github" ? "github" : "google";
    const code = randomUUID();
    const person = { id: form.get("id") ?? "", email: form.get("email") ?? "", name: form.get("name") ?? "" };
    this.grants.set(code, {
      provider,
      person,
      redirectUri: form.get("redirect_uri") ?? "",
      challenge: form.get("code_challenge") || null,
    });
    const back = new URL(form.get("redirect_uri") ?? "");
    back.searchParams.set("code", code);
    back.searchParams.set("state", form.get("state") ?? "");
    response.writeHead(302, { Location: back.href });
    response.end();
  }

  /** Takes a code once, for the client it was given to and the redirect URI it was given with. */
  private take(code: string | null, provider: "google" | "github", redirectUri: string | null) {
    const grant = code ? this.grants.get(code) : undefined;
    if (code) this.grants.delete(code);
    return grant && grant.provider === provider && grant.redirectUri === redirectUri ? grant : null;
  }

  private async googleToken(request: IncomingMessage, response: ServerResponse) {
    const form = await formOf(request);
    const grant = this.take(form.get("code"), "google", form.get("redirect_uri"));
    const verifier = form.get("code_verifier") ?? "";
    const challenge = base64url(createHash("sha256").update(verifier).digest());
    if (
      clientOf(request) !== `${CLIENTS.google.id}:${CLIENTS.google.secret}` ||
      !grant ||
      grant.challenge !== challenge
    ) {
      return json(response, 400, { error: "invalid_grant" });
    }
    const now = Math.floor(Date.now() / 1000);
    const [givenName = "", ...family] = grant.person.name.split(" ");
    return json(response, 200, {
      access_token: randomUUID(),
      token_type: "Bearer",
      expires_in: 3599,
      id_token: unsignedJwt({
        iss: "https://accounts.google.com",
        aud: CLIENTS.google.id,
        sub: grant.person.id,
        email: grant.person.email,
        email_verified: true,
        given_name: givenName,
        family_name: family.join(" "),
        iat: now,
        exp: now + 3600,
      }),
    });
  }

  private async githubToken(request: IncomingMessage, response: ServerResponse) {
    const form = await formOf(request);
    const grant = this.take(form.get("code"), "github", form.get("redirect_uri"));
    // GitHub answers a bad code with 200 and an error in the body.
    if (clientOf(request) !== `${CLIENTS.github.id}:${CLIENTS.github.secret}` || !grant) {
      return json(response, 200, { error: "bad_verification_code" });
    }
    const token = randomUUID();
    this.tokens.set(token, grant.person);
    return json(response, 200, { access_token: token, token_type: "bearer", scope: "read:user,user:email" });
  }

  private githubApi(request: IncomingMessage, response: ServerResponse, emails: boolean) {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1] ?? "";
    const person = this.tokens.get(token);
    if (!person || !request.headers["user-agent"]) return json(response, 401, { message: "Bad credentials" });
    return emails
      ? json(response, 200, [{ email: person.email, primary: true, verified: true, visibility: "private" }])
      : json(response, 200, { id: Number(person.id), login: "octo", name: person.name });
  }
}
