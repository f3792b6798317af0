import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "~/lib/ledger";
import { TYPE_LABELS } from "~/lib/schemas/admin";

const FIELD = "mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 text-sm text-ink";

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {label}
      </label>
      {children}
    </div>
  );
}

/**
 * The filters of a back-office transaction table, sent as a GET so the view lives in the URL: type, status,
 * dates (UTC days), reference and, on the all-clients view, the client and an amount range. `submitted` fills
 * the fields again, a bad value included, so it can be corrected.
 */
export function TransactionFilters({
  idPrefix,
  submitted,
  withClientAndAmount = false,
  clearTo,
}: {
  idPrefix: string;
  submitted: Partial<Record<string, string>>;
  withClientAndAmount?: boolean;
  clearTo: string;
}) {
  const id = (name: string) => `${idPrefix}-${name}`;
  const text = (name: string, label: string, props: { placeholder?: string; inputMode?: "decimal" } = {}) => (
    <Field id={id(name)} label={label}>
      <input id={id(name)} name={name} defaultValue={submitted[name] ?? ""} className={FIELD} {...props} />
    </Field>
  );
  return (
    <Form
      method="get"
      // Keyed on the query so the fields follow Back and Forward and the 'Pending only' link.
      key={JSON.stringify(submitted)}
      className="grid gap-3 rounded-xl border border-border bg-surface p-4 sm:grid-cols-3 lg:grid-cols-5 lg:items-end"
      aria-label="Filter transactions"
    >
      <Field id={id("type")} label="Type">
        <select id={id("type")} name="type" defaultValue={submitted.type ?? ""} className={FIELD}>
          <option value="">All types</option>
          {TRANSACTION_TYPES.map((type) => (
            <option key={type} value={type}>
              {TYPE_LABELS[type]}
            </option>
          ))}
        </select>
      </Field>
      <Field id={id("status")} label="Status">
        <select id={id("status")} name="status" defaultValue={submitted.status ?? ""} className={FIELD}>
          <option value="">All statuses</option>
          {TRANSACTION_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status.charAt(0).toUpperCase() + status.slice(1)}
            </option>
          ))}
        </select>
      </Field>
      <Field id={id("from")} label="From (UTC)">
        <input id={id("from")} name="from" type="date" defaultValue={submitted.from ?? ""} className={FIELD} />
      </Field>
      <Field id={id("to")} label="To (UTC)">
        <input id={id("to")} name="to" type="date" defaultValue={submitted.to ?? ""} className={FIELD} />
      </Field>
      {text("reference", "Reference", { placeholder: "TX-7Q2M9K" })}
      {withClientAndAmount ? (
        <>
          {text("client", "Client (name or e-mail)")}
          {text("min", "Min amount ($)", { inputMode: "decimal", placeholder: "0.00" })}
          {text("max", "Max amount ($)", { inputMode: "decimal", placeholder: "0.00" })}
        </>
      ) : null}
      <div className="flex items-center gap-3">
        <button
          type="submit"
          className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
        >
          Filter
        </button>
        <Link to={clearTo} className="text-sm text-brand hover:underline">
          Clear
        </Link>
      </div>
    </Form>
  );
}

/** Previous and Next under a keyset-paged table; `href` builds the link of a cursor. */
export function PageLinks({
  previous,
  next,
  href,
  label,
}: {
  previous: string | null;
  next: string | null;
  href: (page: { after?: string; before?: string }) => string;
  label: string;
}) {
  if (!previous && !next) return null;
  return (
    <nav aria-label={label} className="mt-3 flex gap-3 text-sm">
      {previous ? (
        <Link to={href({ before: previous })} rel="prev" className="text-brand hover:underline" preventScrollReset>
          Previous
        </Link>
      ) : null}
      {next ? (
        <Link to={href({ after: next })} rel="next" className="text-brand hover:underline" preventScrollReset>
          Next
        </Link>
      ) : null}
    </nav>
  );
}
