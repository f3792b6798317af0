import { env, exports } from "cloudflare:workers";
import { createElement, type ReactElement, Suspense } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { RenderTimeout, renderToBuffer } from "~/server/render/document.server";
import { fundedClient, insertTransaction, ORIGIN } from "../support/fixtures";
import { elementTexts, errorShown, heading, labelledTexts } from "../support/places";

const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const GOOGLEBOT = "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

async function documentFor(path: string, { cookie, userAgent = CHROME }: { cookie?: string; userAgent?: string } = {}) {
  const headers: Record<string, string> = { "User-Agent": userAgent };
  if (cookie) headers.Cookie = cookie;
  const response = await exports.default.fetch(`${ORIGIN}${path}`, { headers, redirect: "manual" });
  const html = await response.text();
  const nonce = /'nonce-([^']+)'/.exec(response.headers.get("Content-Security-Policy") ?? "")?.[1] ?? "";
  return { response, html, nonce };
}

/** Every opening <script> tag of a document. */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/g) ?? [];

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

/** A component that never finishes: it suspends on a promise that never settles. */
function Never(): never {
  throw new Promise(() => {});
}

function Broken(): never {
  throw new Error("broken component");
}

/** A value that arrives 20 ms on: `read()` suspends until then, as a component waiting on its data does. */
function arrivingLater<T>(value: T) {
  let arrived = false;
  const data = new Promise<void>((resolve) => setTimeout(resolve, 20)).then(() => {
    arrived = true;
  });
  return {
    read(): T {
      if (!arrived) throw data;
      return value;
    },
  };
}

/** `child` inside a Suspense boundary whose fallback says "Loading", in a <main>. */
const inBoundary = (child: ReactElement) =>
  createElement("main", null, createElement(Suspense, { fallback: createElement("p", null, "Loading") }, child));

/** A render given time to finish, its errors left to the test's expectations. */
const RENDERED_WHOLE = { nonce: "n0nce", timeoutMs: 5_000, onError: () => {} };
const renderWhole = async (element: ReactElement) => text(await renderToBuffer(element, RENDERED_WHOLE));

describe("the document a page answers", () => {
  it("carries the response's CSP nonce on every script, the single-fetch data included", async () => {
    const client = await fundedClient(12_345, "Noor");
    await insertTransaction(client.id, { transactionType: "withdraw", status: "pending", amountCents: 2_500 });
    const { response, html, nonce } = await documentFor("/dashboard", { cookie: client.cookie });
    expect(response.status).toBe(200);
    expect(nonce).not.toBe("");
    const scripts = scriptTags(html);
    // The route modules, the scroll restoration, the router's context, and the loader data as single fetch streams it.
    expect(scripts.length).toBeGreaterThanOrEqual(4);
    for (const tag of scripts) expect(tag).toContain(`nonce="${nonce}"`);
    expect(html).toContain("window.__reactRouterContext.streamController.enqueue(");
    expect(html).toContain("window.__reactRouterContext.streamController.close();");
  });

  it("holds the page's loader data as single fetch sends it, whole, before the document ends", async () => {
    const client = await fundedClient(12_345, "Noor");
    const { html } = await documentFor("/dashboard", { cookie: client.cookie });
    const dataAt = html.indexOf("streamController.enqueue(");
    const closeAt = html.indexOf("streamController.close();");
    expect(dataAt).toBeGreaterThan(0);
    expect(closeAt).toBeGreaterThan(dataAt);
    // The client's own figures travel in the data the browser hydrates from.
    expect(html.slice(dataAt, closeAt)).toContain("Noor");
    expect(html).toContain("</html>");
  });

  it("gives a crawler and a person the same whole document", async () => {
    const person = await documentFor("/login");
    const crawler = await documentFor("/login", { userAgent: GOOGLEBOT });
    expect(person.response.status).toBe(200);
    expect(crawler.response.status).toBe(200);
    expect(person.response.headers.get("Content-Type")).toBe("text/html; charset=utf-8");
    // The same document but for the nonce, which is fresh on every response.
    expect(crawler.html.replaceAll(crawler.nonce, "N")).toBe(person.html.replaceAll(person.nonce, "N"));
    // Whole: the single-fetch data, which React Router writes after the page's markup, has ended too.
    expect(person.html).toContain("window.__reactRouterContext.streamController.close();");
  });

  it("answers a failing loader with a 500 and the error page inside the site's shell, its scripts allowed", async () => {
    const client = await fundedClient();
    await env.DB.exec("ALTER TABLE ledger_totals RENAME TO ledger_totals_away");
    let failed: Awaited<ReturnType<typeof documentFor>>;
    try {
      failed = await documentFor("/dashboard", { cookie: client.cookie });
    } finally {
      await env.DB.exec("ALTER TABLE ledger_totals_away RENAME TO ledger_totals");
    }
    expect(failed.response.status).toBe(500);
    expect(errorShown(failed.html)?.title).toBe("Something went wrong");
    expect(labelledTexts(failed.html, "Main")).toHaveLength(1);
    expect(labelledTexts(failed.html, "Footer")).toHaveLength(1);
    for (const tag of scriptTags(failed.html)) expect(tag).toContain(`nonce="${failed.nonce}"`);
    // Nothing of the failure's detail reaches the page: not in what it shows, not in its data.
    expect(failed.html).not.toContain("ledger_totals");
  });
});

describe("renderToBuffer", () => {
  it("rejects with RenderTimeout once the limit passes, rather than send a page whose boundaries never ended", async () => {
    const errors: unknown[] = [];
    const started = Date.now();
    const rendering = renderToBuffer(
      createElement(
        "main",
        null,
        createElement("h1", null, "Ready"),
        createElement(Suspense, { fallback: createElement("p", null, "Loading") }, createElement(Never)),
        createElement(Suspense, { fallback: createElement("p", null, "Loading too") }, createElement(Never)),
      ),
      { nonce: "n0nce", timeoutMs: 50, onError: (error) => errors.push(error) },
    );
    await expect(rendering).rejects.toBeInstanceOf(RenderTimeout);
    expect(Date.now() - started).toBeLessThan(2_000);
    // The timeout is the rejection, not an error met while rendering.
    expect(errors).toHaveLength(0);
  });

  it("rejects with RenderTimeout when the shell itself is still waiting at the limit", async () => {
    const errors: unknown[] = [];
    const rendering = renderToBuffer(createElement("main", null, createElement(Never)), {
      nonce: "n0nce",
      timeoutMs: 50,
      onError: (error) => errors.push(error),
    });
    await expect(rendering).rejects.toThrow("the render took longer than 50 ms");
    expect(errors).toHaveLength(0);
  });

  it("waits for every Suspense boundary before answering, with the nonce on React's own scripts", async () => {
    const data = arrivingLater("Arrived later");
    const Later = () => createElement("p", null, data.read());
    const html = await renderWhole(inBoundary(createElement(Later)));
    expect(elementTexts(html, "p")).toEqual(["Arrived later"]);
    // The fallback is not sent at all, not even hidden for the browser to swap out.
    expect(html).not.toContain("Loading");
    for (const tag of scriptTags(html)) expect(tag).toContain('nonce="n0nce"');
  });

  it("sends a large boundary in place, readable without scripts, once everything has rendered", async () => {
    const data = arrivingLater("Row");
    function Rows() {
      const value = data.read();
      return createElement(
        "ul",
        null,
        ...Array.from({ length: 2_000 }, (_, i) => createElement("li", { key: i }, value)),
      );
    }
    const html = await renderWhole(inBoundary(createElement(Rows)));
    // Some 20 KB, more than React's progressive chunk: its stock renderer would send it hidden, for a script to show.
    expect(elementTexts(html, "li")).toHaveLength(2_000);
    expect(html).not.toContain("hidden");
    expect(scriptTags(html)).toEqual([]);
  });

  it("writes the text as UTF-8, no character split between the renderer's pieces", async () => {
    // Pieces of one- to four-byte characters in every length, so that some meet the end of the renderer's 4 KB
    // views; and a lone surrogate, which UTF-8 writes as U+FFFD, as the platform's own encoder does.
    const words = Array.from({ length: 900 }, (_, i) => `${"aé€😀".repeat((i % 7) + 1)}${"x".repeat(i % 3)}`);
    const element = createElement(
      "main",
      null,
      ...words.map((word, i) => createElement("p", { key: i }, word)),
      createElement("p", { key: "lone" }, "lone \uD800 surrogate"),
    );
    const body = await renderToBuffer(element, RENDERED_WHOLE);
    expect(body.byteLength).toBeGreaterThan(3 * 4_096);
    const html = new TextDecoder("utf-8", { fatal: true }).decode(body);
    expect(html).toBe(renderToString(element).replace("\uD800", "\uFFFD"));
  });

  it("rejects when the shell fails, so that React Router renders its error page instead", async () => {
    const errors: unknown[] = [];
    await expect(
      renderToBuffer(createElement("main", null, createElement(Broken)), {
        nonce: "n0nce",
        timeoutMs: 5_000,
        onError: (error) => errors.push(error),
      }),
    ).rejects.toThrow("broken component");
    expect(errors).toHaveLength(1);
  });

  it("reports an error inside a Suspense boundary and leaves that part to the browser", async () => {
    const errors: unknown[] = [];
    const html = text(
      await renderToBuffer(
        createElement(
          "main",
          null,
          createElement("h1", null, "Shell"),
          createElement(Suspense, { fallback: createElement("p", null, "Loading") }, createElement(Broken)),
        ),
        { nonce: "n0nce", timeoutMs: 5_000, onError: (error) => errors.push(error) },
      ),
    );
    expect(heading(html)).toBe("Shell");
    expect(html).toContain("<!--$!-->");
    expect(errors).toHaveLength(1);
  });
});
