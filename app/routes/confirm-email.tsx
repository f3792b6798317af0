import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { useLoaderData } from "@remix-run/react";
import { GoToDashboard } from "~/components/auth-links";
import { AuthCard, Banner } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { confirmEmail } from "~/server/auth/links.server";

export const meta: MetaFunction = pageMeta(() => [{ title: "Confirm Email" }, { name: "robots", content: "noindex" }]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { confirmed: await confirmEmail(context.db, token) };
}

export default function ConfirmEmail() {
  const { confirmed } = useLoaderData<typeof loader>();
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
