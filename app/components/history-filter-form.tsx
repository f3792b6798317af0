import { type FormEvent, type InputHTMLAttributes, type ReactNode, useEffect, useRef } from "react";
import { Form, Link, useSubmit } from "react-router";
import { LabelledOptions } from "~/components/labelled-options";
import { STATUS_LABELS, TRANSACTION_TYPE_LABELS } from "~/lib/labels";
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from "~/lib/ledger";

/** Who reads the form: a client on /transactions, or the back office on /admin/transactions and /user/{id}. */
export type HistoryAudience = "client" | "desk";

/** A link styled as a secondary button on the client's pages. */
export const CLIENT_LINK_BUTTON =
  "rounded-md border border-border px-3 py-2 text-sm font-medium hover:bg-surface-raised focus-visible:outline focus-visible:outline-2 focus-visible:outline-brand";

/**
 * What differs between the audiences: each page keeps its own look and status words (the client's "Declined",
 * the desk's "Rejected"), while the fields, their names, the type labels and the query are shared.
 */
const LOOKS = {
  client: {
    role: "search",
    form: "grid grid-cols-2 gap-3 lg:grid-cols-[repeat(5,minmax(0,1fr))_auto]",
    label: "block text-xs font-medium text-ink-muted",
    control: "w-full rounded-md border border-border bg-canvas px-3 py-2 text-sm",
    // At phone width the reference gets a row of its own, as it is the field typed into most.
    wideField: "col-span-2 lg:col-span-1",
    statusLabels: STATUS_LABELS.client,
    toLabel: "To (UTC, included)",
    // A reference is typed from a mail or a statement: no spelling fixes, shown as it is printed.
    reference: { type: "search", autoComplete: "off", spellCheck: false, className: "font-mono uppercase" },
    actions: "col-span-2 flex items-end gap-2 lg:col-span-1",
    submit: "rounded-md bg-brand-strong px-4 py-2 text-sm font-semibold text-white hover:bg-brand-hover",
    submitLabel: "Apply",
    clear: CLIENT_LINK_BUTTON,
  },
  desk: {
    role: undefined,
    form: "grid gap-3 rounded-xl border border-border bg-surface p-4 sm:grid-cols-3 lg:grid-cols-5 lg:items-end",
    label: "block text-sm font-medium",
    control: "block w-full rounded-md border border-border bg-canvas px-3 py-2 text-sm text-ink",
    wideField: undefined,
    statusLabels: STATUS_LABELS.desk,
    toLabel: "To (UTC)",
    reference: {},
    actions: "flex items-center gap-3",
    submit: "rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover",
    submitLabel: "Filter",
    clear: "text-sm text-brand hover:underline",
  },
} as const;

function Field({
  id,
  label,
  look,
  className,
  children,
}: {
  id: string;
  label: string;
  look: HistoryAudience;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className={LOOKS[look].label}>
        {label}
      </label>
      <div className="mt-1">{children}</div>
    </div>
  );
}

/**
 * The filters of a transaction history, sent as a GET so the view lives in the URL and a new filter starts
 * again at the first page: type, status, dates (UTC days), reference and, on the desk's all-clients view, the
 * client and an amount range. `submitted` fills the fields again, a bad value included, so it can be corrected.
 */
export function HistoryFilterForm({
  look,
  idPrefix,
  submitted,
  clearTo,
  withClientAndAmount = false,
}: {
  look: HistoryAudience;
  idPrefix: string;
  submitted: Partial<Record<string, string>>;
  clearTo: string;
  withClientAndAmount?: boolean;
}) {
  const style = LOOKS[look];
  // The fields follow the URL (Back, Forward, Clear, 'Pending only'): when the query changes, each field takes its
  // new value in place rather than the form being remounted, so focus stays where it was (on the submit button
  // after a submission). Resetting the form would not do: React leaves a select's default as it was first rendered.
  // Only a change counts: what someone chose before the page's scripts started is kept.
  const formRef = useRef<HTMLFormElement>(null);
  const submit = useSubmit();
  // Only the filters that hold something go in the address ('?type=deposit', not '?type=deposit&status=&from=…').
  const submitFilledOnly = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const filled = new URLSearchParams();
    for (const [name, value] of new FormData(event.currentTarget)) {
      if (typeof value === "string" && value.trim() !== "") filled.append(name, value);
    }
    submit(filled, { method: "get" });
  };
  const query = JSON.stringify(submitted);
  const shownQuery = useRef(query);
  useEffect(() => {
    if (shownQuery.current === query) return;
    shownQuery.current = query;
    const values: Partial<Record<string, string>> = JSON.parse(query);
    for (const field of Array.from(formRef.current?.elements ?? [])) {
      if (field instanceof HTMLInputElement || field instanceof HTMLSelectElement)
        field.value = values[field.name] ?? "";
    }
  }, [query]);
  const id = (name: string) => `${idPrefix}-${name}`;
  const text = (
    name: string,
    label: string,
    props: InputHTMLAttributes<HTMLInputElement> = {},
    fieldClass?: string,
  ) => (
    <Field id={id(name)} label={label} look={look} className={fieldClass}>
      <input
        id={id(name)}
        name={name}
        defaultValue={submitted[name] ?? ""}
        {...props}
        className={props.className ? `${style.control} ${props.className}` : style.control}
      />
    </Field>
  );
  const choice = <T extends string>(
    name: "type" | "status",
    label: string,
    all: string,
    values: readonly T[],
    labels: Record<T, string>,
  ) => (
    <Field id={id(name)} label={label} look={look}>
      <select id={id(name)} name={name} defaultValue={submitted[name] ?? ""} className={style.control}>
        <option value="">{all}</option>
        <LabelledOptions values={values} labels={labels} />
      </select>
    </Field>
  );
  const date = (name: "from" | "to", label: string) => (
    <Field id={id(name)} label={label} look={look}>
      <input id={id(name)} name={name} type="date" defaultValue={submitted[name] ?? ""} className={style.control} />
    </Field>
  );
  return (
    <Form
      method="get"
      ref={formRef}
      role={style.role}
      aria-label="Filter transactions"
      className={style.form}
      onSubmit={submitFilledOnly}
    >
      {choice("type", "Type", "All types", TRANSACTION_TYPES, TRANSACTION_TYPE_LABELS)}
      {choice("status", "Status", "All statuses", TRANSACTION_STATUSES, style.statusLabels)}
      {date("from", "From (UTC)")}
      {date("to", style.toLabel)}
      {text("reference", "Reference", { placeholder: "TX-7Q2M9K", ...style.reference }, style.wideField)}
      {withClientAndAmount ? (
        <>
          {text("client", "Client (name or e-mail)")}
          {text("min", "Min amount ($)", { inputMode: "decimal", placeholder: "0.00" })}
          {text("max", "Max amount ($)", { inputMode: "decimal", placeholder: "0.00" })}
        </>
      ) : null}
      <div className={style.actions}>
        <button type="submit" className={style.submit}>
          {style.submitLabel}
        </button>
        <Link to={clearTo} className={style.clear}>
          Clear
        </Link>
      </div>
    </Form>
  );
}
