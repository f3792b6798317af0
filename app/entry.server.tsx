import { type HandleDocumentRequestFunction, ServerRouter } from "react-router";
import { NonceProvider } from "~/lib/nonce";
import { renderToBuffer } from "~/server/render/document.server";

const RENDER_TIMEOUT_MS = 5_000;

/** How long the router lets a streamed loader promise wait; none of ours streams, but the bound stays (0036). */
export const streamTimeout = RENDER_TIMEOUT_MS;

/**
 * Every document is rendered whole, then sent: people and crawlers get the same complete answer. No route defers
 * data, so streaming the shell first would bring nothing forward, and the whole-document render costs less CPU
 * (docs/decisions/0036). Any error the render meets makes the answer a 500. The limit is a parameter so that a
 * test can run the Worker's own build with a short one.
 */
export function handleRequestWithin(timeoutMs: number): HandleDocumentRequestFunction {
  return async function handleRequest(request, responseStatusCode, responseHeaders, routerContext, loadContext) {
    const nonce = loadContext.cspNonce;
    let status = responseStatusCode;
    const body = await renderToBuffer(
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
    responseHeaders.set("Content-Type", "text/html; charset=utf-8");
    return new Response(body, { headers: responseHeaders, status });
  };
}

export default handleRequestWithin(RENDER_TIMEOUT_MS);
