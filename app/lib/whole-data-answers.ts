/**
 * React Router's single fetch reads a page's data (`/path.data`) as a stream tied to the load's abort signal. When the
 * router cancels a load whose answer has begun to arrive (a person follows a link or submits a form while a live
 * update's refresh is read), that stream fails: single fetch logs the failure as an error ("AbortError: signal is
 * aborted without reason"), or, once the first line is read, leaves an unhandled rejection. Reading these answers
 * whole before single fetch sees them makes such a cancellation fail the fetch itself, which single fetch and the
 * router take quietly, as they do for a load cancelled before its answer started. Our data answers are small and
 * never streamed (no loader returns a promise); a cancelled load still stops downloading. Browser only.
 */
export function readDataAnswersWhole(win: Window) {
  const fetchAnswer = win.fetch.bind(win);
  win.fetch = async (input, init) => {
    const response = await fetchAnswer(input, init);
    if (!isDataRequest(input, win.location) || response.type !== "basic" || response.body === null) return response;
    const body = await response.arrayBuffer();
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}

/** A single fetch request: one of our pages' data, `/_.data` or `/{path}.data`. */
function isDataRequest(input: RequestInfo | URL, location: Location): boolean {
  const url = new URL(input instanceof Request ? input.url : input, location.href);
  return url.origin === location.origin && url.pathname.endsWith(".data");
}
