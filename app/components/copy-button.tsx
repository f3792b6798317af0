import { useEffect, useState } from "react";
import { toast } from "sonner";
import { COPY_CONFIRMATION_MS } from "~/lib/timers";

export const COPIED_MESSAGE = "Wallet address copied to clipboard";

/** Copies a value; says so in a toast and inline, for 2 seconds (docs/product.md, "Constants"). */
export function CopyButton({ value, disabled, label }: { value: string; disabled?: boolean; label?: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_CONFIRMATION_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      toast.success(COPIED_MESSAGE);
    } catch {
      toast.error("Copying is not available here: select the address and copy it by hand.");
    }
  }

  return (
    <>
      <button
        type="button"
        onClick={copy}
        disabled={disabled || !value}
        // Several on a page (each own deposit address): the name says which, and starts with the visible word.
        aria-label={label ? `${copied ? "Copied!" : "Copy"} ${label}` : undefined}
        className="shrink-0 rounded-md border border-border px-3 py-2 text-sm font-medium hover:bg-surface-raised disabled:opacity-50"
      >
        {copied ? "Copied!" : "Copy"}
      </button>
      <span role="status" className="sr-only">
        {copied ? COPIED_MESSAGE : ""}
      </span>
    </>
  );
}
