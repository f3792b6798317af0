import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useEffect } from "react";
import { toast } from "sonner";
import { DepositForm } from "~/components/deposit-form";
import { SelectField } from "~/components/form";
import { idempotencyKeyOf, MONEY_MESSAGES, parseDepositForm, STOCK_MESSAGES } from "~/lib/schemas/money";
import { findStock } from "~/lib/stocks";
import { depositWalletViews, listDepositWallets } from "~/server/ledger/reads.server";
import { moneyRequester, submitDeposit } from "~/server/ledger/requests.server";
import { getSessionUser, requireClient } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Buy ${data?.symbol ?? ""} stock` }];

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
  const requester = moneyRequester(await getSessionUser(request, context));
  if (!requester.ok) return data({ error: requester.error }, { status: requester.status });
  const form = await request.formData();
  const parsed = parseDepositForm(form, await listDepositWallets(context.db));
  if (!parsed.ok) return data({ error: parsed.error }, { status: 400 });
  // Then a stock must be selected, and the URL's symbol must be a known one (any case).
  const selected = String(form.get("stock") ?? "").trim();
  if (!selected) return data({ error: STOCK_MESSAGES.selectStock }, { status: 400 });
  const stock = findStock(params.symbol ?? "");
  if (!stock || stock.symbol !== selected.toUpperCase()) {
    return data({ error: STOCK_MESSAGES.invalidSymbol }, { status: 400 });
  }
  const idempotencyKey = idempotencyKeyOf(form);
  if (!idempotencyKey) return data({ error: MONEY_MESSAGES.formExpired }, { status: 400 });

  const result = await submitDeposit(context, requester.client, {
    amountCents: parsed.data.amountCents,
    walletType: parsed.data.wallet.walletType,
    walletAddress: parsed.data.wallet.walletAddress,
    stock: stock.symbol,
    idempotencyKey,
  });
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  return redirectWithToast(context.env, "/dashboard", {
    type: "success",
    description: MONEY_MESSAGES.depositSubmitted,
  });
}

export default function StockDeposit() {
  const { symbol, known, wallets, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const error = actionData?.error ?? (known ? null : STOCK_MESSAGES.invalidSymbol);
  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error);
  }, [actionData]);
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-3xl font-bold">Make a Deposit to buy {symbol} stock</h1>
      <DepositForm
        wallets={wallets}
        amount=""
        idempotencyKey={idempotencyKey}
        error={error}
        openQrOnChoice
        disabled={!known}
        lockedField={
          <>
            {/* Locked to the URL's stock: shown disabled, sent as a hidden field. */}
            <SelectField label="Stock" name="stockShown" value={symbol} disabled onChange={() => undefined}>
              <option value={symbol}>{symbol}</option>
            </SelectField>
            <input type="hidden" name="stock" value={symbol} />
          </>
        }
      />
    </section>
  );
}
