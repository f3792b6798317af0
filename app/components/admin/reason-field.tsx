import type { ReactNode } from "react";
import { useFieldError } from "~/components/form";
import { REASON_MAX_LENGTH } from "~/lib/schemas/reason";

/**
 * A text a back-office form carries for someone else to read (an entry's reason, a wallet change's, a verification
 * decision's note to the client): a labelled textarea of at most 500 characters, with a hint saying who reads it
 * and whether it is required; an error about its field shows under it.
 */
export function ReasonField({
  id,
  name = "reason",
  label = "Reason",
  rows = 2,
  hint,
  className,
}: {
  id?: string;
  name?: string;
  label?: string;
  rows?: number;
  hint: ReactNode;
  className?: string;
}) {
  const reason = useFieldError(name, undefined, true);
  const fieldId = id ?? reason.id;
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="block text-sm font-medium">
        {label}
      </label>
      <textarea
        id={fieldId}
        name={name}
        rows={rows}
        maxLength={REASON_MAX_LENGTH}
        {...reason.controlProps}
        className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40"
      />
      <p id={reason.hintId} className="mt-1 text-xs text-ink-muted">
        {hint}
      </p>
      {reason.errorText}
    </div>
  );
}
