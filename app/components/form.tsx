import { useNavigation } from "@remix-run/react";
import { type ComponentProps, type ReactNode, useId } from "react";

/** Labelled input. Every control has a real <label>; errors are announced by the banner. */
export function Field({
  label,
  hint,
  className = "",
  ...input
}: ComponentProps<"input"> & { label: string; hint?: ReactNode; name: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <input
        id={id}
        {...input}
        className="mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 text-ink placeholder:text-ink-muted/70 focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 read-only:opacity-80"
      />
      {hint ? <p className="mt-1 text-xs text-ink-muted">{hint}</p> : null}
    </div>
  );
}

export function SelectField({
  label,
  children,
  className = "",
  ...select
}: ComponentProps<"select"> & { label: string; name: string }) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <select
        id={id}
        {...select}
        className="mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 text-ink focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40"
      >
        {children}
      </select>
    </div>
  );
}

/** A submit button that shows its loading text while its own form is being submitted. */
export function SubmitButton({
  children,
  pendingText,
  intent,
  disabled,
  className = "",
}: {
  children: ReactNode;
  pendingText: string;
  intent?: string;
  disabled?: boolean;
  className?: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button
      type="submit"
      name={intent ? "intent" : undefined}
      value={intent}
      disabled={disabled || pending}
      aria-busy={pending}
      className={`inline-flex items-center justify-center rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand disabled:cursor-not-allowed disabled:opacity-60 ${className}`}
    >
      {pending ? pendingText : children}
    </button>
  );
}

/** The one message area of a form: red for errors, green for success (SPEC §8). */
export function Banner({ tone, children }: { tone: "error" | "success"; children: ReactNode }) {
  return (
    <div
      role={tone === "error" ? "alert" : "status"}
      className={`rounded-md border px-4 py-3 text-sm ${
        tone === "error" ? "border-danger/50 bg-danger/10 text-danger" : "border-success/50 bg-success/10 text-success"
      }`}
    >
      {children}
    </div>
  );
}

export function AuthCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mx-auto w-full max-w-md rounded-xl border border-border bg-surface p-6 shadow-lg sm:p-8">
      <h1 className="text-2xl font-bold">{title}</h1>
      <div className="mt-6">{children}</div>
    </section>
  );
}
