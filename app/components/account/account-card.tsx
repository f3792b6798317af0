import type { ReactNode } from "react";

/** One card of Account Settings: an article that its heading names (for screen readers, through aria-labelledby). */
export function AccountCard({
  headingId,
  title,
  children,
}: {
  headingId: string;
  title: ReactNode;
  children: ReactNode;
}) {
  return (
    <article aria-labelledby={headingId} className="rounded-xl border border-border bg-surface p-6">
      <h2 id={headingId} className="text-lg font-semibold">
        {title}
      </h2>
      {children}
    </article>
  );
}
