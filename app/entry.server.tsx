import type { AppLoadContext, EntryContext } from "@remix-run/cloudflare";
import { RemixServer } from "@remix-run/react";
import { NonceProvider } from "~/lib/nonce";
import { renderToBuffer } from "~/server/render/document.server";

const ABORT_DELAY_MS = 5_000;

/**
 * Every document is rendered whole, then sent: people and crawlers get the same complete answer. No route defers
 * data, so streaming the shell first would bring nothing forward, and the whole-document render costs less CPU
 * (docs/decisions/0036). Any error the render meets makes the answer a 500.
 */
export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const nonce = loadContext.cspNonce;
  let status = responseStatusCode;
  const body = await renderToBuffer(
    <NonceProvider value={nonce}>
      <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
    </NonceProvider>,
    {
      nonce,
      timeoutMs: ABORT_DELAY_MS,
      onError(error) {
        status = 500;
        console.error(error);
      },
    },
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  return new Response(body, { headers: responseHeaders, status });
}
