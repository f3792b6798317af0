import { type HandleDocumentRequestFunction, ServerRouter } from "react-router";
import { NonceProvider } from "~/lib/nonce";
import { busyResponse } from "~/server/render/busy.server";
import { RenderTimeout, renderToBuffer } from "~/server/render/document.server";

/**
 * A render costs milliseconds of CPU and no route defers data, so only a starved isolate (or a component that
 * suspends, which none does) reaches this: waiting costs memory only, and a late page beats an answer to retry.
 * Three times the 6-second stall that once passed the former 5 seconds (docs/decisions/0056).
 */
const RENDER_TIMEOUT_MS = 15_000;

/** How long the router lets a streamed loader promise wait; none of ours streams. Below the render's limit, so
 * that such a promise's failure would still be rendered rather than cut off. */
export const streamTimeout = RENDER_TIMEOUT_MS - 1_000;

/**
 * Every document is rendered whole, then sent: people and crawlers get the same complete answer. No route defers
 * data, so streaming the shell first would bring nothing forward, and the whole-document render costs less CPU
 * (docs/decisions/0036). An error the render meets makes the answer a 500; a render past its limit is the server
 * being busy, not the page failing: a 503 to try again, logged as a warning (0056). The limit is a parameter so
 * that a test can run the Worker's own build with a short one.
 */
export function handleRequestWithin(timeoutMs: number): HandleDocumentRequestFunction {
  return async function handleRequest(request, responseStatusCode, responseHeaders, routerContext, loadContext) {
    const nonce = loadContext.cspNonce;
    let status = responseStatusCode;
    let body: Uint8Array<ArrayBuffer>;
    try {
      body = await renderToBuffer(
        <NonceProvider value={nonce}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </NonceProvider>,
        {
          nonce,
          timeoutMs,
          onError(error) {
            status = 500;
            console.error(error);
          },
        },
      );
    } catch (error) {
      // Anything else is the shell failing: React Router renders its error page.
      if (!(error instanceof RenderTimeout)) throw error;
      console.warn(`${request.method} ${new URL(request.url).pathname}: ${error.message}; answered 503`);
      return busyResponse(request, responseHeaders, loadContext.env.BRAND_NAME);
    }
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    return new Response(body, { headers: responseHeaders, status });
  };
}

export default handleRequestWithin(RENDER_TIMEOUT_MS);
