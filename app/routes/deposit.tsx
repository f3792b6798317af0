import { data } from "react-router";
import { DepositForm } from "~/components/deposit-form";
import { OwnDepositAddresses } from "~/components/own-deposit-addresses";
import { pageMeta, RouteError } from "~/components/route-error";
import { DepositLevelNotice } from "~/components/verification-money-notice";
import { refusalOf } from "~/lib/forms";
import { parseAmountToCents } from "~/lib/ledger";
import { MONEY_MESSAGES } from "~/lib/schemas/money";
import { depositFormClosed } from "~/lib/verification-money";
import { claimWalletViews, ownDepositAddresses } from "~/server/chain/deposit-page.server";
import { readDepositForm, submitDeposit } from "~/server/ledger/deposit-requests.server";
import { requireClient } from "~/server/session.server";
import { requestTakenToDashboard } from "~/server/toast.server";
import { depositLevelView } from "~/server/verification/levels.server";
import type { Route } from "./+types/deposit";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Make a Deposit" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  const level = await depositLevelView(context.db, context.env, user.id);
  const prefill = parseAmountToCents(new URL(request.url).searchParams.get("amount") ?? "");
  return {
    wallets: await claimWalletViews(context),
    // The client's own address per wallet watched on chain, given on first view; none while they may not deposit.
    ownAddresses:
      depositFormClosed(level) || user.profileStatus !== "active" ? [] : await ownDepositAddresses(context, user.id),
    amount: prefill === null ? "" : (prefill / 100).toFixed(2),
    // A fresh key per rendered form: a double click or a retried request creates one deposit, not two.
    idempotencyKey: crypto.randomUUID(),
    // What the client's verification level allows (docs/product.md, "Identity verification").
    level,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const input = await readDepositForm(request, context);
  if (!input.ok) return data(refusalOf(input), { status: input.status });
  const result = await submitDeposit(context, input.client, input.deposit);
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  return requestTakenToDashboard(context.env, MONEY_MESSAGES.depositSubmitted);
}

export default function Deposit({ loaderData, actionData }: Route.ComponentProps) {
  const { wallets, ownAddresses, amount, idempotencyKey, level } = loaderData;
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-3xl font-bold">Make a Deposit</h1>
      <DepositLevelNotice {...level} />
      <OwnDepositAddresses addresses={ownAddresses} />
      {/* With every wallet watched on chain there is nothing to claim: no empty form beneath the addresses. */}
      {wallets.length > 0 || ownAddresses.length === 0 ? (
        <>
          {ownAddresses.length > 0 ? <h2 className="mt-8 text-xl font-semibold">Other wallets</h2> : null}
          <DepositForm
            wallets={wallets}
            amount={amount}
            idempotencyKey={idempotencyKey}
            reply={actionData}
            disabled={depositFormClosed(level)}
          />
        </>
      ) : null}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
