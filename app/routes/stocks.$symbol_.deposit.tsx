import { data } from "react-router";
import { DepositForm } from "~/components/deposit-form";
import { SelectField } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { DepositLevelNotice } from "~/components/verification-money-notice";
import { errorFor, refusalOf, refuse } from "~/lib/forms";
import { MONEY_MESSAGES, STOCK_MESSAGES } from "~/lib/schemas/money";
import { findStock } from "~/lib/stocks";
import { depositFormClosed } from "~/lib/verification-money";
import { claimWalletViews } from "~/server/chain/deposit-page.server";
import { readDepositForm, submitDeposit } from "~/server/ledger/deposit-requests.server";
import { requireClient } from "~/server/session.server";
import { requestTakenToDashboard } from "~/server/toast.server";
import { depositLevelView } from "~/server/verification/levels.server";
import type { Route } from "./+types/stocks.$symbol_.deposit";

export const meta: Route.MetaFunction = pageMeta(({ loaderData: data }) => [
  { title: `Buy ${data?.symbol ?? ""} stock` },
]);

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  const stock = findStock(params.symbol ?? "");
  return {
    symbol: stock?.symbol ?? (params.symbol ?? "").toUpperCase(),
    known: Boolean(stock),
    wallets: await claimWalletViews(context),
    idempotencyKey: crypto.randomUUID(),
    // What the client's verification level allows (docs/product.md, "Identity verification").
    level: await depositLevelView(context.db, context.env, user.id),
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const input = await readDepositForm(request, context, (form) => {
    // A stock must be selected, and the URL's symbol must be a known one (any case).
    const selected = String(form.get("stock") ?? "").trim();
    if (!selected) return refuse(STOCK_MESSAGES.selectStock, "stock");
    const stock = findStock(params.symbol ?? "");
    if (!stock || stock.symbol !== selected.toUpperCase()) return refuse(STOCK_MESSAGES.invalidSymbol, "stock");
    return { ok: true, data: stock.symbol };
  });
  if (!input.ok) return data(refusalOf(input), { status: input.status });
  const result = await submitDeposit(context, input.client, input.deposit);
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  return requestTakenToDashboard(context.env, MONEY_MESSAGES.depositSubmitted);
}

export default function StockDeposit({ loaderData, actionData }: Route.ComponentProps) {
  const { symbol, known, wallets, idempotencyKey, level } = loaderData;
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-3xl font-bold">Make a Deposit to buy {symbol} stock</h1>
      <DepositLevelNotice {...level} />
      <DepositForm
        wallets={wallets}
        amount=""
        idempotencyKey={idempotencyKey}
        reply={actionData}
        notice={known ? null : STOCK_MESSAGES.invalidSymbol}
        openQrOnChoice
        disabled={!known || depositFormClosed(level)}
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
