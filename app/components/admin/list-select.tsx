import { LabelledOptions } from "~/components/labelled-options";

/**
 * One of the client list's filters or orders: a labelled select of fixed options in their list's order, set to the
 * value in the URL (`client-<name>` is its id).
 */
export function ListSelect({
  name,
  label,
  value,
  options,
  labels,
  withAll = false,
}: {
  name: string;
  label: string;
  value: string;
  options: readonly string[];
  labels: Readonly<Record<string, string>>;
  /** Offer "All" first, the filter left off (an empty value). */
  withAll?: boolean;
}) {
  const id = `client-${name}`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-xs text-ink-muted">
        {label}
      </label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        key={value}
        className="rounded-md border border-border bg-canvas px-2 py-2 text-sm"
      >
        {withAll ? <option value="">All</option> : null}
        <LabelledOptions values={options} labels={labels} />
      </select>
    </div>
  );
}
