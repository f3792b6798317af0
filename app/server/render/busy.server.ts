import { escapeHtml } from "~/server/mail/compose.server";

/** How long a browser or crawler is asked to wait: a stall that outlasts the render limit is one of seconds. */
export const RETRY_AFTER_SECONDS = 10;

export const BUSY_TITLE = "We are busy right now";
export const BUSY_TEXT = "This page took too long to prepare. Please try again in a moment.";
/** Only after a form: its action ran before the render, so it may well have done what was asked. */
export const BUSY_AFTER_FORM = "What you sent may have been received: check before sending it again.";

/**
 * The answer to a document whose render outlasted its limit (docs/decisions/0056). The server is busy, the page
 * is not broken: a 503 with `Retry-After`, so that a crawler comes back rather than drops the page, and
 * `no-store`, so that no cache keeps it (the edge cache keeps 200s only). The loaders' headers stay, their cookies
 * included: the loaders ran, and a session they renewed or a notice they consumed is so whatever the render did.
 * Plain HTML without scripts or the site's stylesheet: it must not depend on anything else the server serves.
 */
export function busyResponse(request: Request, loaderHeaders: Headers, brandName: string): Response {
  const headers = new Headers(loaderHeaders);
  headers.set("Content-Type", "text/html; charset=utf-8");
  headers.set("Cache-Control", "no-store");
  headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return new Response(busyPage(request, brandName), { status: 503, headers });
}

function busyPage(request: Request, brandName: string): string {
  const url = new URL(request.url);
  // The same address, read again: after a form that is a GET, so nothing is sent twice by following it.
  const again = escapeHtml(`${url.pathname}${url.search}`);
  const brand = escapeHtml(brandName);
  const afterForm = request.method === "GET" || request.method === "HEAD" ? "" : `<p>${BUSY_AFTER_FORM}</p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${BUSY_TITLE} | ${brand}</title>
<style>body{margin:0;min-height:100vh;display:grid;place-items:center;font-family:system-ui,sans-serif;color:#0f172a;background:#f8fafc}main{max-width:32rem;padding:2rem;text-align:center}a{color:#1d4ed8;font-weight:600}</style>
</head>
<body>
<main>
<p>${brand}</p>
<h1>${BUSY_TITLE}</h1>
<p>${BUSY_TEXT}</p>
${afterForm}<p><a href="${again}">Try again</a></p>
</main>
</body>
</html>
`;
}
