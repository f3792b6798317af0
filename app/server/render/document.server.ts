import type { ReactElement } from "react";
// React's Node renderer, not the browser build that `react-dom/server` resolves to in workerd: the browser build
// encodes every string piece on its own and enqueues 512-byte chunks into a native stream, which cost this app
// 15 to 30% more CPU per document (docs/decisions/0036). The Node build needs only `util`'s TextEncoder and
// `setImmediate`, both in workerd with nodejs_compat. It is patched at install so that it encodes its pieces in
// JavaScript and counts no bytes, two calls into the runtime per piece otherwise (docs/decisions/0079).
import { renderToPipeableStream } from "react-dom/server.node";

export interface RenderOptions {
  nonce: string;
  /** How long the render may take: past it, the render stops and the promise rejects with `RenderTimeout`. */
  timeoutMs: number;
  /** Each error the render meets inside a Suspense boundary (that part is left to the browser). */
  onError: (error: unknown) => void;
}

export class RenderTimeout extends Error {
  constructor(timeoutMs: number) {
    super(`the render took longer than ${timeoutMs} ms`);
    this.name = "RenderTimeout";
  }
}

const encoder = new TextEncoder();

/**
 * Renders `element` into one buffer, resolved once everything has rendered (every Suspense boundary, so the single
 * fetch data React Router streams inside them is in the document). An error outside every Suspense boundary (the
 * shell) rejects, as `renderToReadableStream` does, so that React Router renders its error page. Past `timeoutMs`
 * it rejects with `RenderTimeout`, whatever is ready: the only boundaries are that data, and a page without it
 * cannot hydrate (docs/decisions/0056).
 */
export function renderToBuffer(element: ReactElement, options: RenderOptions): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    let length = 0;
    let timedOut = false;
    // React writes 2 KB views into it, then ends it. It never pushes back: nothing is sent before the end.
    const sink = {
      write(chunk: Uint8Array<ArrayBuffer> | string) {
        // React 19 writes a large string piece as it is; React 18 only ever wrote bytes.
        const bytes = typeof chunk === "string" ? encoder.encode(chunk) : chunk;
        chunks.push(bytes);
        length += bytes.byteLength;
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
        // The abort reports its reason once per unfinished part: the rejection has said it already.
        if (!timedOut) options.onError(error);
      },
      onShellError(error) {
        clearTimeout(timer);
        reject(error);
      },
      onAllReady() {
        if (!timedOut) render.pipe(sink as unknown as NodeJS.WritableStream);
      },
    });
    const timer = setTimeout(() => {
      timedOut = true;
      const timeout = new RenderTimeout(options.timeoutMs);
      // Rejected here, not from React's callbacks: React 18 aborting an unfinished shell calls none of them.
      reject(timeout);
      render.abort(timeout);
    }, options.timeoutMs);
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
