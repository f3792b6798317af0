import { useState } from "react";
import { Form, useNavigation } from "react-router";
import { useFieldError } from "~/components/form";
import { StepUpField } from "~/components/step-up";
import { formatCents } from "~/lib/format";
import { typeLabel } from "~/lib/labels";
import { parseAmountToCents, type TransactionType } from "~/lib/ledger";
import { FIGURES } from "~/lib/money/rules";
import { STOCKS, TRADING_PAIRS } from "~/lib/stocks";
import { ReasonField } from "./reason-field";

/**
 * The client page's ledger entry: an amount, plus a trading pair for a profit or loss and a stock for a stock
 * deposit, and a reason the client reads (optional, but required when the amount makes the entry a proposal for a
 * second admin). Confirm posts it (intent "entry"); Cancel closes the panel. An error about one of its fields (from
 * the surrounding FormErrors) shows under that field; when the server asks for a second-factor code, its field
 * appears here, with the amount still filled in.
 */
export interface DepositLimit {
  limitCents: number;
  leftCents: number;
}

/** The entry types that count towards an unverified client's deposit limit (the rules table's figure). */
const COUNTS_TOWARDS_LIMIT = new Set(Object.keys(FIGURES.clientDeposits.weights.approved));

export function EntryPanel({
  type,
  idempotencyKey,
  secondApprovalFromCents,
  depositLimit,
  onCancel,
}: {
  type: TransactionType;
  idempotencyKey: string;
  secondApprovalFromCents: number;
  depositLimit: DepositLimit | null;
  onCancel: () => void;
}) {
  const [typedCents, setTypedCents] = useState<number | null>(null);
  const limit = depositLimit && COUNTS_TOWARDS_LIMIT.has(type) ? depositLimit : null;
  // The key of this entry: the one the page had when the panel opened. The page's data is read again on every live
  // event (each with a new key), and neither the entry being typed nor its key may change under the admin's hands;
  // a posted entry closes the panel, and the next one opens with the page's newer key.
  const [entryKey] = useState(idempotencyKey);
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" && navigation.formData?.get("intent") === "entry";
  const amount = useFieldError("amount", undefined);
  const pair = useFieldError("tradingPair", undefined);
  const stock = useFieldError("stock", undefined);
  return (
    <Form
      method="post"
      className="mt-4 grid gap-4 rounded-xl border border-border bg-surface-raised p-4 sm:grid-cols-4"
    >
      <input type="hidden" name="intent" value="entry" />
      <input type="hidden" name="type" value={type} />
      <input type="hidden" name="idempotencyKey" value={entryKey} />
      <div>
        <label htmlFor="entry-amount" className="block text-sm font-medium">
          {typeLabel(type)} amount
        </label>
        <input
          id="entry-amount"
          name="amount"
          type="number"
          step="0.01"
          min="0.01"
          inputMode="decimal"
          required
          {...amount.controlProps}
          onChange={(event) => setTypedCents(parseAmountToCents(event.target.value))}
          className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2"
        />
        {amount.errorText}
      </div>
      {limit ? <LimitWarning limit={limit} typedCents={typedCents} /> : null}
      {type === "profit" || type === "loss" ? (
        <div>
          <label htmlFor="entry-pair" className="block text-sm font-medium">
            Trading pair
          </label>
          <select
            id="entry-pair"
            name="tradingPair"
            defaultValue=""
            {...pair.controlProps}
            className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2"
          >
            <option value="">Select a trading pair</option>
            {TRADING_PAIRS.map((tradingPair) => (
              <option key={tradingPair} value={tradingPair}>
                {tradingPair}
              </option>
            ))}
          </select>
          {pair.errorText}
        </div>
      ) : null}
      {type === "stock_deposit" ? (
        <div>
          <label htmlFor="entry-stock" className="block text-sm font-medium">
            Stock
          </label>
          <select
            id="entry-stock"
            name="stock"
            defaultValue=""
            {...stock.controlProps}
            className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2"
          >
            <option value="">Select a stock</option>
            {STOCKS.map((s) => (
              <option key={s.symbol} value={s.symbol}>
                {s.symbol} · {s.name}
              </option>
            ))}
          </select>
          {stock.errorText}
        </div>
      ) : null}
      <ReasonField
        id="entry-reason"
        className="sm:col-span-4"
        hint={
          <>
            {secondApprovalFromCents === 0
              ? "Required: every entry waits for a second admin's approval."
              : `Optional below ${formatCents(secondApprovalFromCents)}, required from it: such entries wait for a second admin's approval.`}{" "}
            The client reads it in the e-mail about this entry and in their History.
          </>
        }
      />
      <StepUpField className="sm:col-span-2" />
      <div className="flex items-end gap-2">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover disabled:opacity-60"
        >
          {busy ? "Processing..." : "Confirm"}
        </button>
        <button type="button" onClick={onCancel} className="rounded-md border border-border px-4 py-2 hover:bg-surface">
          Cancel
        </button>
      </div>
    </Form>
  );
}

/**
 * Before an entry that counts towards an unverified client's deposit limit: the limit and what is left of it, and,
 * once the amount typed passes it, a warning to read before Confirm (the desk may post past it; the client may not).
 */
function LimitWarning({ limit, typedCents }: { limit: DepositLimit; typedCents: number | null }) {
  const left = Math.max(0, limit.leftCents);
  const over = typedCents !== null && typedCents > left;
  return (
    <p
      role={over ? "alert" : "status"}
      className={`rounded-md border p-3 text-sm sm:col-span-4 ${over ? "border-danger/50 bg-danger/10" : "border-border"}`}
    >
      {`This client's identity is not verified: their deposits may total ${formatCents(limit.limitCents)} until it is, and ${formatCents(left)} is left.`}
      {over
        ? ` This entry takes them ${formatCents((typedCents ?? 0) - left)} past that limit: confirm only if that is intended.`
        : ""}
    </p>
  );
}
