import { type ComponentProps, createContext, type FormEvent, type ReactNode, useContext, useId } from "react";
import { Form, useNavigation } from "react-router";
import { errorFor, type FormReply } from "~/lib/forms";

const FormErrorsContext = createContext<FormReply>(null);

/**
 * Hands a form's refusal (its action's `{ error, field }`, or a check made in the page) to the fields inside:
 * the field it names shows the message under itself. The form's banner shows it too.
 */
export function FormErrors({ reply, children }: { reply: FormReply; children: ReactNode }) {
  return <FormErrorsContext.Provider value={reply}>{children}</FormErrorsContext.Provider>;
}

/**
 * The error of one control: the message under it, `aria-invalid` on it and `aria-describedby` pointing at the
 * message (and at its hint, if any). `error` given explicitly wins over the surrounding FormErrors.
 */
export function useFieldError(name: string | undefined, error: string | null | undefined, hasHint = false) {
  const reply = useContext(FormErrorsContext);
  const id = useId();
  const message = error !== undefined ? error : name ? errorFor(reply, name) : undefined;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hasHint ? hintId : null, message ? errorId : null].filter(Boolean).join(" ");
  return {
    id,
    hintId,
    message: message || null,
    controlProps: {
      "aria-invalid": message ? true : undefined,
      "aria-describedby": describedBy || undefined,
    },
    errorText: message ? (
      <p id={errorId} className="mt-1 text-sm text-danger">
        {message}
      </p>
    ) : null,
  };
}

const INVALID = "aria-[invalid=true]:border-danger aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-danger/50";

/** The amount every client money form asks for: US dollars and cents, above zero (the server parses it again). */
export const AmountField = ({ defaultValue }: { defaultValue?: string }) => (
  <Field
    label="Amount (USD)"
    name="amount"
    type="number"
    inputMode="decimal"
    step="0.01"
    min="0.01"
    defaultValue={defaultValue}
    required
  />
);

/** Labelled input. Every control has a real <label>; an error about it shows under it as well as in the banner. */
export function Field({
  label,
  hint,
  error,
  className = "",
  ...input
}: ComponentProps<"input"> & { label: string; hint?: ReactNode; name: string; error?: string | null }) {
  const field = useFieldError(input.name, error, Boolean(hint));
  return (
    <div className={className}>
      <label htmlFor={field.id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <input
        id={field.id}
        {...field.controlProps}
        {...input}
        className={`mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 text-ink placeholder:text-ink-muted focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 read-only:opacity-80 ${INVALID}`}
      />
      {hint ? (
        <p id={field.hintId} className="mt-1 text-xs text-ink-muted">
          {hint}
        </p>
      ) : null}
      {field.errorText}
    </div>
  );
}

/** The current password, asked again by a signed-in account's forms (password change, two-factor set-up and management). */
export function CurrentPasswordField() {
  return (
    <Field label="Current Password" name="currentPassword" type="password" autoComplete="current-password" required />
  );
}

export function SelectField({
  label,
  error,
  children,
  className = "",
  ...select
}: ComponentProps<"select"> & { label: string; name: string; error?: string | null }) {
  const field = useFieldError(select.name, error);
  return (
    <div className={className}>
      <label htmlFor={field.id} className="block text-sm font-medium text-ink">
        {label}
      </label>
      <select
        id={field.id}
        {...field.controlProps}
        {...select}
        className={`mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 text-ink focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 ${INVALID}`}
      >
        {children}
      </select>
      {field.errorText}
    </div>
  );
}

const SUBMIT_TONES = {
  primary:
    "inline-flex items-center justify-center rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover disabled:cursor-not-allowed disabled:opacity-60",
  // A submit that destroys or refuses something (app/tailwind.css).
  danger: "button-danger",
};

/**
 * A submit button that shows its loading text while its own form is being submitted; `tone="danger"` for one that
 * destroys or refuses something (turn off, unlink, reject, delete, cancel a request).
 */
export function SubmitButton({
  children,
  pendingText,
  intent,
  disabled,
  tone = "primary",
  className = "",
  form,
}: {
  children: ReactNode;
  pendingText: string;
  intent?: string;
  disabled?: boolean;
  /** The id of the form it sends, when the button stands outside it. */
  form?: string;
  tone?: keyof typeof SUBMIT_TONES;
  className?: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && (intent === undefined || navigation.formData?.get("intent") === intent);
  return (
    <button
      type="submit"
      form={form}
      name={intent ? "intent" : undefined}
      value={intent}
      disabled={disabled || pending}
      aria-busy={pending}
      className={`${SUBMIT_TONES[tone]} ${className}`}
    >
      {pending ? pendingText : children}
    </button>
  );
}

/** The one message area of a form: red for errors, green for success (docs/decisions/0011). */
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

/** A signed-out page's form, posted to its action: the refusal shows above the fields and under the one it names. */
export function AuthForm({
  reply,
  onSubmit,
  children,
}: {
  reply: FormReply;
  /** A check in the page before the post (the server checks everything again). */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <FormErrors reply={reply}>
      <Form method="post" className="space-y-4" onSubmit={onSubmit}>
        {reply?.error ? <Banner tone="error">{reply.error}</Banner> : null}
        {children}
      </Form>
    </FormErrors>
  );
}
