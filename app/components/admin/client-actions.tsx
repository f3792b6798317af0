import { Form } from "react-router";
import { typeLabel } from "~/lib/labels";
import { TRANSACTION_TYPES, type TransactionType } from "~/lib/ledger";
import { type DepositLimit, EntryPanel } from "./entry-panel";

/**
 * The client page's Actions card: one button per entry type (opening the entry panel), and Suspend User or
 * Activate User depending on the client's status; each only for an admin whose roles allow it.
 */
export function ClientActions({
  entryType,
  onChoose,
  suspended,
  idempotencyKey,
  secondApprovalFromCents,
  depositLimit,
  mayPostEntries,
  mayChangeStatus,
}: {
  entryType: TransactionType | null;
  onChoose: (type: TransactionType | null) => void;
  suspended: boolean;
  idempotencyKey: string;
  /** Entries of this amount or more wait for a second admin. */
  secondApprovalFromCents: number;
  /** An unverified client's deposit limit and what is left of it; null for a verified client. */
  depositLimit: DepositLimit | null;
  mayPostEntries: boolean;
  mayChangeStatus: boolean;
}) {
  // Only the acts the admin's roles allow are offered; with none, there is no Actions card.
  if (!mayPostEntries && !mayChangeStatus) return null;
  return (
    <article className="rounded-xl border border-border bg-surface p-5">
      <h2 className="text-lg font-semibold">Actions</h2>
      <div className="mt-3 flex flex-wrap gap-2">
        {(mayPostEntries ? TRANSACTION_TYPES : []).map((type) => (
          <button
            key={type}
            type="button"
            aria-pressed={entryType === type}
            onClick={() => onChoose(type)}
            className={`rounded-md border px-3 py-2 text-sm font-medium ${
              entryType === type ? "border-brand bg-brand/15" : "border-border hover:bg-surface-raised"
            }`}
          >
            {typeLabel(type)}
          </button>
        ))}
        {mayChangeStatus ? (
          <Form method="post">
            <input type="hidden" name="intent" value={suspended ? "activate" : "suspend"} />
            <button
              type="submit"
              className={`rounded-md px-3 py-2 text-sm font-semibold ${
                suspended
                  ? "bg-success/20 text-success hover:bg-success/30"
                  : "bg-danger/20 text-danger hover:bg-danger/30"
              }`}
            >
              {suspended ? "Activate User" : "Suspend User"}
            </button>
          </Form>
        ) : null}
      </div>
      {entryType && mayPostEntries ? (
        <EntryPanel
          key={entryType}
          type={entryType}
          idempotencyKey={idempotencyKey}
          secondApprovalFromCents={secondApprovalFromCents}
          depositLimit={depositLimit}
          onCancel={() => onChoose(null)}
        />
      ) : null}
    </article>
  );
}
