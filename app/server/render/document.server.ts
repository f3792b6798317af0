import type { ReactElement } from "react";
// React's Node renderer, not the browser build that `react-dom/server` resolves to in workerd: the browser build
// encodes every string piece on its own and enqueues 512-byte chunks into a native stream, which cost this app
// 15 to 30% more CPU per document (docs/decisions/0036). The Node build needs only `util`'s TextEncoder and
// `setImmediate`, both in workerd with nodejs_compat.
import { renderToPipeableStream } from "react-dom/server.node";

export interface RenderOptions {
  nonce: string;
  /** After this long, what has not rendered yet is left for the browser to render, and the document is sent. */
  timeoutMs: number;
  /** Each error the render meets; a timeout is reported once, as `RenderTimeout`. */
  onError: (error: unknown) => void;
}

export class RenderTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`The render took longer than ${timeoutMs} ms: what was not ready is left to the browser`);
    this.name = "RenderTimeout";
  }
}

/**
 * Renders `element` into one buffer, resolved once everything has rendered (every Suspense boundary, so the single
 * fetch data React Router streams inside them is in the document) or the timeout has passed. An error outside every
 * Suspense boundary (the shell) rejects, as `renderToReadableStream` does, so that React Router renders its error page.
 */
export function renderToBuffer(element: ReactElement, options: RenderOptions): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let length = 0;
    let timedOut = false;
    // React writes 2 KB views into it, then ends it. It never pushes back: nothing is sent before the end.
    const sink = {
      write(chunk: Uint8Array<ArrayBuffer>) {
        chunks.push(chunk);
        length += chunk.byteLength;
        return true;
      },
      end() {
        clearTimeout(timer);
        resolve(joinChunks(chunks, length));
      },
      destroy(error: unknown) {
        clearTimeout(timer);
        reject(error);
      },
      on() {
        return sink;
      },
    };
    const render = renderToPipeableStream(element, {
      nonce: options.nonce,
      onError(error) {
        // An abort reports its reason once per unfinished part; one report says it all.
        if (error instanceof RenderTimeout) {
          if (timedOut) return;
          timedOut = true;
        }
        options.onError(error);
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error);
      },
      onAllReady() {
        render.pipe(sink as unknown as NodeJS.WritableStream);
      },
    });
    const timer = setTimeout(() => render.abort(new RenderTimeout(options.timeoutMs)), options.timeoutMs);
  });
}

function joinChunks(chunks: Uint8Array<ArrayBuffer>[], length: number): Uint8Array<ArrayBuffer> {
  if (chunks.length === 1 && chunks[0]) return chunks[0];
  const body = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}
