/**
 * `npm run lighthouse`: Lighthouse (mobile preset) with Debian's Chromium against a local server on a throwaway
 * database; prints performance, accessibility, best practices and SEO per route, and the targets missed.
 * Signed-in routes get the demo users' session cookie. Slow and machine-dependent: not part of CI.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";
import { ROOT } from "./lib/local-d1.ts";
import { signInCookie, startLocalServer } from "./lib/local-server.ts";
import { DEMO_ADMIN, DEMO_CLIENT } from "./seed.ts";

const port = process.env.LIGHTHOUSE_PORT ?? "8793";
const origin = `http://127.0.0.1:${port}`;
const chromePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
if (!existsSync(chromePath)) {
  console.error(`Chromium not found at ${chromePath}: apt-get install -y chromium, or set CHROMIUM_PATH.`);
  process.exit(1);
}

const PUBLIC_ROUTES = ["/", "/login", "/register", "/stocks", "/trading-plan", "/about-us", "/terms-of-service"];
const TARGETS = { performance: 95, accessibility: 100, "best-practices": 95, seo: 95 } as const;

/**
 * Puts a cookie ("name=value") in the browser's own cookie jar, through the DevTools protocol. A Cookie header
 * added to the requests instead would be replaced by the jar's as soon as a page sets a cookie of its own (the
 * D1 bookmark does, on every page that reads the database), and the route would be measured signed out.
 * Lighthouse resets a page's storage between runs but keeps cookies, so the jar's session stays.
 */
async function putCookieInBrowser(debuggingPort: number, cookie: string) {
  const { webSocketDebuggerUrl } = (await (await fetch(`http://127.0.0.1:${debuggingPort}/json/version`)).json()) as {
    webSocketDebuggerUrl: string;
  };
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", reject, { once: true });
  });
  const separator = cookie.indexOf("=");
  const answered = new Promise<{ error?: { message: string } }>((resolve) =>
    socket.addEventListener("message", (event) => resolve(JSON.parse(String(event.data))), { once: true }),
  );
  socket.send(
    JSON.stringify({
      id: 1,
      method: "Storage.setCookies",
      params: {
        cookies: [
          { name: cookie.slice(0, separator), value: cookie.slice(separator + 1), url: origin, httpOnly: true },
        ],
      },
    }),
  );
  const reply = await answered;
  socket.close();
  if (reply.error) throw new Error(`could not set the session cookie in Chromium: ${reply.error.message}`);
}

/** Full reports, for the details behind a score (git-ignored). */
const REPORTS = join(ROOT, ".wrangler", "lighthouse");
mkdirSync(REPORTS, { recursive: true });

const { stop: stopServer } = await startLocalServer({ port, state: "lighthouse" });

let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  const routes: Array<{ path: string; cookie?: string; public: boolean }> = PUBLIC_ROUTES.map((path) => ({
    path,
    public: true,
  }));
  routes.push({
    path: "/dashboard",
    cookie: await signInCookie(origin, DEMO_CLIENT.email, DEMO_CLIENT.password),
    public: false,
  });
  routes.push({
    path: "/admin",
    cookie: await signInCookie(origin, DEMO_ADMIN.email, DEMO_ADMIN.password, DEMO_ADMIN.totpSecret),
    public: false,
  });

  chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: [
      "--headless=new",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
  });
  const rows: Record<string, Record<string, number | string>> = {};
  const missed: string[] = [];
  for (const route of routes) {
    if (route.cookie && chrome) await putCookieInBrowser(chrome.port, route.cookie);
    const audit = () =>
      lighthouse(`${origin}${route.path}`, {
        port: chrome?.port,
        output: "json",
        logLevel: "error",
        onlyCategories: Object.keys(TARGETS),
      });
    // Chromium sometimes loses the trace of a load (NO_NAVSTART); Lighthouse's own advice is to run again.
    let result = await audit();
    if (result?.lhr.runtimeError) result = await audit();
    const categories = result?.lhr.categories ?? {};
    const row: Record<string, number | string> = {};
    for (const [id, target] of Object.entries(TARGETS)) {
      const score = Math.round((categories[id]?.score ?? 0) * 100);
      row[id] = score;
      if (route.public && score < target) missed.push(`${route.path} ${id} ${score} < ${target}`);
    }
    // The metrics behind the performance score, to see what to fix.
    const audits = result?.lhr.audits ?? {};
    const ms = (id: string) => Math.round(audits[id]?.numericValue ?? 0);
    row["FCP ms"] = ms("first-contentful-paint");
    row["LCP ms"] = ms("largest-contentful-paint");
    row["TBT ms"] = ms("total-blocking-time");
    row.CLS = Number((audits["cumulative-layout-shift"]?.numericValue ?? 0).toFixed(3));
    rows[route.path] = row;
    if (result) writeFileSync(join(REPORTS, `${route.path.slice(1) || "home"}.json`), result.report as string);
  }
  console.log(`Lighthouse ${new Date().toISOString().slice(0, 10)}, mobile preset, Debian Chromium, local server:`);
  console.table(rows);
  if (missed.length > 0) console.log(`Targets missed on public routes:\n  ${missed.join("\n  ")}`);
  else console.log("Every target holds on the public routes.");
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await chrome?.kill();
  stopServer();
}
