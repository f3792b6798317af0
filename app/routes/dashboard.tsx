import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { Link, useLoaderData } from "@remix-run/react";
import { getAccount } from "~/server/auth.server";
import { requireClient } from "~/server/session.server";

export const meta: MetaFunction = () => [{ title: "Dashboard" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireClient(request, context, { signedOutTo: "/" });
  const account = await getAccount(context.db, user.id);
  return {
    firstName: account?.firstName ?? "",
    // SPEC §2: "Welcome" on the first sign-in (last login equals creation), "Welcome back" after.
    firstVisit: account?.lastLoginAt === account?.createdAt,
  };
}

export default function Dashboard() {
  const { firstName, firstVisit } = useLoaderData<typeof loader>();
  return (
    <section>
      <div className="flex flex-wrap items-center justify-between gap-4">
        <h1 className="text-3xl font-bold">Dashboard</h1>
        <Link to="/deposit" className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand">
          Fund Account
        </Link>
      </div>
      <p className="mt-4 text-xl">
        {firstVisit ? "Welcome" : "Welcome back"}, {firstName}
      </p>
    </section>
  );
}
