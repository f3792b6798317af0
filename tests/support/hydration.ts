/**
 * What a page shows only once hydrated, read from the data it hydrates from: the flash toast of the root loader,
 * the toast a form's reply raises. tests/support/places.ts reads what the server's HTML shows.
 */
import { UNSAFE_decodeViaTurboStream as decodeViaTurboStream } from "react-router";

/**
 * The data the page hydrates from, decoded as the browser decodes it: the chunks React Router's server wrote into
 * `window.__reactRouterContext.streamController.enqueue(…)` scripts, in page order, read by React Router's own
 * turbo-stream decoder. `{ loaderData, actionData, errors }`, keyed by route id.
 */
export async function hydrationData(
  html: string,
): Promise<{ loaderData?: Record<string, unknown>; actionData?: Record<string, unknown> | null }> {
  const chunks = [
    ...html.matchAll(
      /<script\b[^>]*>window\.__reactRouterContext\.streamController\.enqueue\(("(?:[^"\\]|\\.)*")\);<\/script>/g,
    ),
  ].map(([, literal = '""']) => JSON.parse(literal) as string);
  const body = new ReadableStream<string>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  }).pipeThrough(new TextEncoderStream());
  const decoded = await decodeViaTurboStream(body, globalThis);
  await decoded.done;
  return (decoded.value ?? {}) as Awaited<ReturnType<typeof hydrationData>>;
}

/**
 * The flash toast this page shows, as its kind and the words a person reads (the title, if any, then the
 * description); null when it shows none. The toast is only ever rendered on the client: the server's HTML holds
 * an empty toaster, and app/components/toasts.tsx hands the root loader's `toast` to sonner after hydration. So
 * the place the page shows it from is the root route's entry in the hydration data, read here decoded, not a
 * text found anywhere in the page.
 */
export async function shownToast(html: string): Promise<{ type: string; text: string } | null> {
  const root = (await hydrationData(html)).loaderData?.root as
    | { toast?: { type: string; title?: string; description: string } | null }
    | undefined;
  const toast = root?.toast;
  return toast ? { type: toast.type, text: [toast.title, toast.description].filter(Boolean).join(" ") } : null;
}

/**
 * The toast a page raises from its form's reply once hydrated (pages whose success shows only as
 * `toast.success(reply.message)`, no banner): the answering route's reply in the hydration data's `actionData`.
 * Null when the page raises none.
 */
export async function replyToast(html: string): Promise<{ type: "success"; text: string } | null> {
  const replies = Object.values((await hydrationData(html)).actionData ?? {}) as Array<{
    tone?: string;
    message?: string;
  } | null>;
  const reply = replies.find((each) => each?.tone === "success" && typeof each.message === "string");
  return reply?.message === undefined ? null : { type: "success", text: reply.message };
}

/**
 * The reply of the route that answered a form (its `actionData`: `{ tone, message, field, intent }`), as the form's banner
 * and step-up field draw it; null when the page holds none. The one place of an answer to a form the page does not
 * show (a row that is not listed, a panel this person is not given).
 */
export async function formReply(
  html: string,
): Promise<{ tone?: string; message?: string; field?: string | null; intent?: string } | null> {
  const replies = Object.values((await hydrationData(html)).actionData ?? {}) as Array<{
    tone?: string;
    message?: string;
    field?: string | null;
    intent?: string;
  } | null>;
  return replies.find((each) => typeof each?.message === "string") ?? null;
}
