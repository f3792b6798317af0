import type { JSX } from "react";
import { data, Form } from "react-router";
import { GoToDashboard } from "~/components/auth-links";
import { AuthCard, Banner, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { formatCents, formatDateTimeUtc } from "~/lib/format";
import { typeLabel } from "~/lib/labels";
import { transactionReference } from "~/lib/reference";
import { CANCEL_MESSAGES } from "~/lib/schemas/requests";
import { readForm } from "~/server/form.server";
import { cancelByLink, requestForCancelLink } from "~/server/ledger/cancel.server";
import type { Route } from "./+types/cancel-request";

/** The mail's one-click cancel link: a confirm page (works signed out), then the POST cancels. */
export const meta: Route.MetaFunction = pageMeta(() => [
  { title: "Cancel request" },
  { name: "robots", content: "noindex" },
  { name: "referrer", content: "no-referrer" },
]);

// The address carries the link's token: no cache keeps the page, and no link on it passes the address on.
export const headers: Route.HeadersFunction = () => ({
  "Cache-Control": "private, no-store",
  "Referrer-Policy": "no-referrer",
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token");
  const found = await requestForCancelLink(context.db, context.env.SESSION_SECRET, token);
  if (!found.ok) return { token: null, error: found.error, request: null };
  const { id, transactionType, amountCents, address, createdAt } = found.request;
  const reference = transactionReference(id);
  return { token, error: null, request: { reference, transactionType, amountCents, address, createdAt } };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const result = await cancelByLink(context, String(form.get("token") ?? ""));
  if (!result.ok) return data({ done: false, error: result.error }, { status: result.status });
  return { done: true, error: null };
}

export default function CancelRequest({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { token, error, request } = loaderData;
  let body: JSX.Element;
  // The heading asks only while there is a request to cancel; after the answer it says what happened.
  let title = "Cancel this request?";
  if (reply?.done) {
    title = CANCEL_MESSAGES.cancelled;
    body = <p className="text-sm">It will not be paid out. Your dashboard shows it as Cancelled.</p>;
  } else if (reply?.error || error || !request || !token) {
    title = "This request cannot be cancelled here";
    body = <Banner tone="error">{reply?.error ?? error ?? CANCEL_MESSAGES.invalidLink}</Banner>;
  } else
    body = (
      <Form method="post" action="/cancel-request" className="space-y-4">
        <p className="text-sm">This pending request will be cancelled and never paid out:</p>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
          <dt className="text-ink-muted">Reference</dt>
          <dd className="font-mono">{request.reference}</dd>
          <dt className="text-ink-muted">Type</dt>
          <dd className="font-medium">{typeLabel(request.transactionType)}</dd>
          <dt className="text-ink-muted">Amount</dt>
          <dd className="font-medium tabular-nums">{formatCents(request.amountCents)}</dd>
          {request.address ? (
            <>
              <dt className="text-ink-muted">Pay to address</dt>
              <dd className="break-all font-mono">{request.address}</dd>
            </>
          ) : null}
          <dt className="text-ink-muted">Requested</dt>
          <dd>{formatDateTimeUtc(request.createdAt)}</dd>
        </dl>
        <input type="hidden" name="token" value={token} />
        <SubmitButton pendingText="Cancelling..." tone="danger" className="w-full">
          Cancel request
        </SubmitButton>
      </Form>
    );
  return (
    <AuthCard title={title}>
      {body}
      <GoToDashboard />
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
