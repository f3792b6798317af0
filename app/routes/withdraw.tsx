import { data, Form } from "react-router";
import { AmountField, Banner, Field, FormErrors, SelectField, SubmitButton } from "~/components/form";
import { pageMeta, RouteError } from "~/components/route-error";
import { StepUpField } from "~/components/step-up";
import { WithdrawalLevelNotice } from "~/components/verification-money-notice";
import { formatCents } from "~/lib/format";
import { refusalOf } from "~/lib/forms";
import { MONEY_MESSAGES } from "~/lib/schemas/money";
import { WITHDRAWAL_CURRENCIES } from "~/lib/wallet-address";
import { siteOrigin } from "~/server/http.server";
import { openPositionsCostCents, withdrawableCents } from "~/server/ledger/figures.server";
import { readWithdrawalForm, submitWithdrawal } from "~/server/ledger/withdrawal-requests.server";
import { requireClient } from "~/server/session.server";
import { requestTakenToDashboard } from "~/server/toast.server";
import { withdrawalLevelView } from "~/server/verification/levels.server";
import type { Route } from "./+types/withdraw";

export const meta: Route.MetaFunction = pageMeta(() => [{ title: "Withdraw Funds" }]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = await requireClient(request, context);
  return {
    // What can still be withdrawn: pending withdrawals are already reserved (docs/product.md, "Money rules").
    availableCents: await withdrawableCents(context.db, user.id),
    // Open positions reserve their cost until sold (docs/product.md, "Orders and positions").
    reservedCents: await openPositionsCostCents(context.db, user.id),
    // Only a verified client withdraws, within rolling limits (docs/product.md, "Identity verification").
    level: await withdrawalLevelView(context.db, context.env, user.id),
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const input = await readWithdrawalForm(request, context);
  if (!input.ok) return data(refusalOf(input), { status: input.status });
  const result = await submitWithdrawal(context, input.client, input.withdrawal, siteOrigin(context.env, request));
  if (!result.ok) return data({ error: result.error }, { status: result.status });
  return requestTakenToDashboard(context.env, MONEY_MESSAGES.withdrawalSubmitted);
}

export default function Withdraw({ loaderData, actionData }: Route.ComponentProps) {
  const { availableCents, reservedCents, level, idempotencyKey } = loaderData;
  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-3xl font-bold">Withdraw Funds</h1>
      <div className="mt-6 rounded-xl border border-border bg-surface p-6">
        <p className="text-sm text-ink-muted">Available balance</p>
        <p className="mt-1 text-3xl font-semibold" data-testid="available-balance">
          {formatCents(availableCents)}
        </p>
        <p className="mt-2 text-xs text-ink-muted">Withdrawals awaiting review are already deducted.</p>
        {reservedCents > 0 ? (
          <p className="mt-1 text-xs text-ink-muted" data-testid="reserved-by-positions">
            So is the cost of your open positions, {formatCents(reservedCents)}, until they are sold.
          </p>
        ) : null}
      </div>
      <WithdrawalLevelNotice {...level} />
      {level.level !== "verified" ? null : (
        <FormErrors reply={actionData}>
          <Form method="post" className="mt-6 space-y-5 rounded-xl border border-border bg-surface p-6">
            {actionData?.error ? <Banner tone="error">{actionData.error}</Banner> : null}
            <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
            <AmountField />
            <SelectField label="Cryptocurrency" name="cryptoCurrency" defaultValue="">
              <option value="">Select a cryptocurrency</option>
              {WITHDRAWAL_CURRENCIES.map((currency) => (
                <option key={currency} value={currency}>
                  {currency}
                </option>
              ))}
            </SelectField>
            <Field label="Wallet Address" name="walletAddress" autoComplete="off" spellCheck={false} />
            <StepUpField />
            <SubmitButton pendingText="Processing..." className="w-full">
              Submit Withdrawal
            </SubmitButton>
          </Form>
        </FormErrors>
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
