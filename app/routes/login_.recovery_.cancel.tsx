import { data, Form } from "react-router";
import { AuthCard, Banner, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { ACCESS_RECOVERY_MESSAGES } from "~/lib/access-recovery";
import { formatDateTimeUtc } from "~/lib/format";
import { cancelRecovery, requestOfCancelLink } from "~/server/access-recovery/requests.server";
import { readForm } from "~/server/form.server";
import { siteOrigin } from "~/server/http.server";
import type { Route } from "./+types/login_.recovery_.cancel";

/** The cancel link of an access-recovery mail: a confirm page (works signed out), then the POST cancels. */
export const meta: Route.MetaFunction = pageMeta(() => [
  { title: "Cancel the request to restore access" },
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
  const found = await requestOfCancelLink(context, token);
  return found ? { token, submittedAt: found.submittedAt } : { token: null, submittedAt: null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await readForm(request);
  const found = await requestOfCancelLink(context, String(form.get("token") ?? ""));
  if (!found) return data({ done: false, error: ACCESS_RECOVERY_MESSAGES.invalidLink }, { status: 409 });
  const result = await cancelRecovery(context, found.id, found.userId, siteOrigin(context.env, request));
  if (!result.ok) return data({ done: false, error: result.error }, { status: result.status });
  return { done: true, error: null };
}

export default function CancelAccessRecovery({ loaderData, actionData: reply }: Route.ComponentProps) {
  const { token, submittedAt } = loaderData;
  if (reply?.done) {
    return (
      <AuthCard title={ACCESS_RECOVERY_MESSAGES.cancelled}>
        <p className="text-sm">
          Nothing about your sign-in changed. If you did not send this request, reset your password now (Forgot your
          password? on the sign-in page).
        </p>
      </AuthCard>
    );
  }
  if (!token || reply?.error) {
    return (
      <AuthCard title="This request cannot be cancelled here">
        <Banner tone="error">{reply?.error ?? ACCESS_RECOVERY_MESSAGES.invalidLink}</Banner>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Cancel the request to restore access?">
      <Form method="post" className="space-y-4">
        <p className="text-sm">
          {`The request to remove your two-factor sign-in${submittedAt ? `, sent ${formatDateTimeUtc(submittedAt)},` : ""} will be cancelled, and your sign-in stays as it is.`}
        </p>
        <input type="hidden" name="token" value={token} />
        <SubmitButton pendingText="Cancelling..." tone="danger" className="w-full">
          Cancel the request
        </SubmitButton>
      </Form>
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
