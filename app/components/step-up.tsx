import { type ReactNode, useEffect, useRef, useState } from "react";
import { Form, useNavigation, useRouteLoaderData } from "react-router";
import { FormErrors, SubmitButton, useFieldError } from "~/components/form";
import { Modal } from "~/components/modal";
import type { FormReply } from "~/lib/forms";
import { asksForCode, isPasskeyPrompt, isStepUpPrompt, STEP_UP_FIELD, STEP_UP_MESSAGES } from "~/lib/step-up";
import { UsePasskeyButton } from "./passkeys/use-passkey-button";

/**
 * The second-factor code field of a money form (step-up, docs/decisions/0019). It appears inside the same form
 * once the server has asked for a code (a reply from the surrounding FormErrors about the field `stepUpCode`),
 * so the user types the code and submits again with everything else still filled in. 'Invalid code' or the
 * lock shows under it; the prompt itself is its label. Focused when it appears, and emptied and focused again
 * after each answer that still asks (the code typed was wrong or spent).
 */
export function StepUpField({ className }: { className?: string }) {
  const reply = useFieldError(STEP_UP_FIELD, undefined);
  const input = useRef<HTMLInputElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const navigation = useNavigation();
  const submitted = useRef(false);
  useEffect(() => {
    if (navigation.state === "submitting") submitted.current = true;
    if (navigation.state !== "idle" || !submitted.current) return;
    submitted.current = false;
    if (!input.current) return;
    input.current.value = "";
    input.current.focus();
  }, [navigation.state]);

  const root = useRouteLoaderData("root") as { viewer?: { passkey?: boolean } | null } | undefined;
  if (reply.message === null) return null;
  const error = isStepUpPrompt(reply.message) ? null : reply.message;
  // A passkey instead of the code: the session becomes fresh, and the same form is sent again without one.
  const sendAgain = () => {
    if (input.current) {
      input.current.required = false;
      input.current.value = "";
    }
    const form = box.current?.closest("form");
    // Its submit button names the intent, as the person's own click did.
    form?.requestSubmit(form.querySelector<HTMLButtonElement>('button[type="submit"]') ?? undefined);
  };
  // A session signed in with a recovery code is told why it is asked (it never counts for step-up).
  const why = reply.message === STEP_UP_MESSAGES.afterRecoveryCode ? reply.message : null;
  const errorId = `${reply.id}-error`;
  const whyId = `${reply.id}-why`;
  // A passkey-only account has no app to read a code from: its passkey is the only answer.
  if (isPasskeyPrompt(reply.message)) {
    return (
      <div ref={box} className={className}>
        <p className="text-sm text-ink" role="status">
          {reply.message}
        </p>
        <UsePasskeyButton url="/passkeys/verify" label="Use a passkey" onVerified={sendAgain} className="mt-2" />
      </div>
    );
  }
  return (
    <div ref={box} className={className}>
      <label htmlFor={reply.id} className="block text-sm font-medium text-ink">
        {STEP_UP_MESSAGES.prompt}
      </label>
      {why ? (
        <p id={whyId} className="mt-1 text-sm text-ink-muted">
          {why}
        </p>
      ) : null}
      <input
        ref={input}
        id={reply.id}
        name={STEP_UP_FIELD}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        spellCheck={false}
        required
        // biome-ignore lint/a11y/noAutofocus: it appears because the server asked for it, right after a submit
        autoFocus
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : why ? whyId : undefined}
        className="mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 font-mono text-lg tracking-widest text-ink focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40 aria-[invalid=true]:border-danger aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-danger/50"
      />
      {error ? (
        <p id={errorId} className="mt-1 text-sm text-danger">
          {error}
        </p>
      ) : null}
      {root?.viewer?.passkey ? (
        <UsePasskeyButton url="/passkeys/verify" label="Use a passkey" onVerified={sendAgain} className="mt-2" />
      ) : null}
    </div>
  );
}

/**
 * For an action whose form has no room for the code (a table row's buttons, a confirmed delete): a dialog that
 * opens when the server asks, holding the same action again, its `fields` hidden, with the code field and the
 * action's button. Closing it drops that request; the next refusal opens it again.
 */
export function StepUpDialog({
  reply,
  stamp,
  title,
  intent,
  fields,
  submitLabel,
  pendingText,
  tone,
  children,
}: {
  /** The refusal for this action, as FormErrors takes it; the dialog shows only when it asks for a code. */
  reply: FormReply;
  /** What identifies the reply (its time): closing hides this one, a later one opens the dialog again. */
  stamp: number | undefined;
  title: string;
  intent: string;
  fields: Record<string, string>;
  submitLabel: string;
  pendingText: string;
  /** "danger" for an action that destroys something (a client's data). */
  tone?: "primary" | "danger";
  children?: ReactNode;
}) {
  const [closed, setClosed] = useState<number | undefined>(undefined);
  const open = asksForCode(reply) && stamp !== closed;
  const form = useRef<HTMLFormElement>(null);
  // The field's own autofocus runs while the dialog is still closed; once it is open, the code field takes focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: again for each reply, identified by its stamp
  useEffect(() => {
    if (open) form.current?.querySelector<HTMLInputElement>(`[name="${STEP_UP_FIELD}"]`)?.focus();
  }, [open, stamp]);
  return (
    <Modal open={open} title={title} onClose={() => setClosed(stamp)}>
      {open ? (
        <FormErrors reply={reply}>
          <Form ref={form} method="post" className="space-y-4">
            {children}
            {Object.entries(fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <StepUpField />
            <SubmitButton intent={intent} pendingText={pendingText} tone={tone} className="w-full">
              {submitLabel}
            </SubmitButton>
          </Form>
        </FormErrors>
      ) : null}
    </Modal>
  );
}
