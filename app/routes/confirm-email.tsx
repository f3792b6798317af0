import { GoToDashboard } from "~/components/auth-links";
import { AuthCard, Banner } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { confirmEmail } from "~/server/auth/links.server";
import type { Route } from "./+types/confirm-email";

export const meta: Route.MetaFunction = pageMeta(() => [
  { title: "Confirm Email" },
  { name: "robots", content: "noindex" },
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { confirmed: await confirmEmail(context.db, token) };
}

export default function ConfirmEmail({ loaderData }: Route.ComponentProps) {
  const { confirmed } = loaderData;
  return (
    <AuthCard title="Email confirmation">
      {confirmed ? (
        <Banner tone="success">Thank you: your email address is confirmed.</Banner>
      ) : (
        <Banner tone="error">This confirmation link is invalid, has expired or was already used.</Banner>
      )}
      <GoToDashboard />
    </AuthCard>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
