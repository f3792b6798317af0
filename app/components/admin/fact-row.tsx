import type { ReactNode } from "react";

/** One label and its value in a review page's facts list (a `<dl>` with dividers). */
export function FactRow({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-1 py-2">
      <dt className="text-ink-muted">{label}</dt>
      <dd className="font-medium break-words">{children}</dd>
    </div>
  );
}
