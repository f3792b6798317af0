import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DepositForm } from "~/components/deposit-form";
import { pageMeta, RouteError } from "~/components/route-error";
import { refusalOf } from "~/lib/forms";
import { parseAmountToCents } from "~/lib/ledger";
import { MONEY_MESSAGES } from "~/lib/schemas/money";
import { depositWalletViews } from "~/server/ledger/reads.server";
import { submitDepositForm } from "~/server/ledger/requests.server";
import { requireClient } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: MetaFunction = pageMeta(() => [{ title: "Make a Deposit" }]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireClient(request, context);
  const prefill = parseAmountToCents(new URL(request.url).searchParams.get("amount") ?? "");
  return {
    wallets: await depositWalletViews(context.db),
    amount: prefill === null ? "" : (prefill / 100).toFixed(2),
    // A fresh key per rendered form: a double click or a retried request creates one deposit, not two.
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const result = await submitDepositForm(request, context);
  if (!result.ok) return data(refusalOf(result), { status: result.status });
  return redirectWithToast(context.env, "/dashboard", {
    type: "success",
    description: MONEY_MESSAGES.depositSubmitted,
  });
}

export default function Deposit() {
  const { wallets, amount, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-3xl font-bold">Make a Deposit</h1>
      <DepositForm wallets={wallets} amount={amount} idempotencyKey={idempotencyKey} reply={actionData} />
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
