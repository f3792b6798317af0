import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { DepositForm } from "~/components/deposit-form";
import { SelectField } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { errorFor, refusalOf, refuse } from "~/lib/forms";
import { MONEY_MESSAGES, STOCK_MESSAGES } from "~/lib/schemas/money";
import { findStock } from "~/lib/stocks";
import { depositWalletViews } from "~/server/ledger/reads.server";
import { submitDepositForm } from "~/server/ledger/requests.server";
import { requireClient } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: MetaFunction<typeof loader> = pageMeta(({ data }) => [{ title: `Buy ${data?.symbol ?? ""} stock` }]);

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  await requireClient(request, context);
  const stock = findStock(params.symbol ?? "");
  return {
    symbol: stock?.symbol ?? (params.symbol ?? "").toUpperCase(),
    known: Boolean(stock),
    wallets: await depositWalletViews(context.db),
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const result = await submitDepositForm(request, context, (form) => {
    // A stock must be selected, and the URL's symbol must be a known one (any case).
    const selected = String(form.get("stock") ?? "").trim();
    if (!selected) return refuse(STOCK_MESSAGES.selectStock, "stock");
    const stock = findStock(params.symbol ?? "");
    if (!stock || stock.symbol !== selected.toUpperCase()) return refuse(STOCK_MESSAGES.invalidSymbol, "stock");
    return { ok: true, data: stock.symbol };
  });
  if (!result.ok) return data(refusalOf(result), { status: result.status });
  return redirectWithToast(context.env, "/dashboard", {
    type: "success",
    description: MONEY_MESSAGES.depositSubmitted,
  });
}

export default function StockDeposit() {
  const { symbol, known, wallets, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-3xl font-bold">Make a Deposit to buy {symbol} stock</h1>
      <DepositForm
        wallets={wallets}
        amount=""
        idempotencyKey={idempotencyKey}
        reply={actionData}
        notice={known ? null : STOCK_MESSAGES.invalidSymbol}
        openQrOnChoice
        disabled={!known}
        lockedField={
          <>
            {/* Locked to the URL's stock: shown disabled, sent as a hidden field (an error about it shows here). */}
            <SelectField
              label="Stock"
              name="stockShown"
              value={symbol}
              disabled
              onChange={() => undefined}
              error={errorFor(actionData, "stock")}
            >
              <option value={symbol}>{symbol}</option>
            </SelectField>
            <input type="hidden" name="stock" value={symbol} />
          </>
        }
      />
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
