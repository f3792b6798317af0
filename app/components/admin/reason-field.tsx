import type { ReactNode } from "react";
import { useFieldError } from "~/components/form";
import { REASON_MAX_LENGTH } from "~/lib/schemas/reason";

/**
 * The reason a back-office form carries (an entry's, a wallet change's): a labelled textarea of at most 500
 * characters, with a hint saying who reads it and whether it is required; an error about the field `reason`
 * shows under it.
 */
export function ReasonField({ id, hint, className }: { id?: string; hint: ReactNode; className?: string }) {
  const reason = useFieldError("reason", undefined, true);
  const fieldId = id ?? reason.id;
  return (
    <div className={className}>
      <label htmlFor={fieldId} className="block text-sm font-medium">
        Reason
      </label>
      <textarea
        id={fieldId}
        name="reason"
        rows={2}
        maxLength={REASON_MAX_LENGTH}
        {...reason.controlProps}
        className="mt-1 w-full rounded-md border border-border bg-canvas px-3 py-2"
      />
      <p id={reason.hintId} className="mt-1 text-xs text-ink-muted">
        {hint}
      </p>
      {reason.errorText}
    </div>
  );
}
