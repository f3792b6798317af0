import { Form, useNavigation } from "react-router";

/**
 * To a client whose e-mail address is not confirmed yet: where the link is, and 'Send the link again', which
 * mails a new one (the earlier ones stop working) and comes back to this page with the outcome as a toast.
 */
export function ConfirmEmailNotice({ redirectTo }: { redirectTo: string }) {
  const navigation = useNavigation();
  const sending = navigation.state === "submitting" && navigation.formAction === "/account/confirmation";
  return (
    <aside
      aria-label="E-mail confirmation"
      className="flex flex-wrap items-center justify-between gap-3 rounded-xl border border-pending/50 bg-pending/10 p-4"
    >
      <p className="min-w-0 grow basis-72 text-sm">
        Your e-mail address is not confirmed yet: open the link in the e-mail we sent you, or get a new one.
      </p>
      <Form method="post" action="/account/confirmation">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <button
          type="submit"
          disabled={sending}
          className="rounded-md bg-brand-strong px-3 py-1.5 text-sm font-semibold text-white hover:bg-brand-hover disabled:opacity-60"
        >
          {sending ? "Sending..." : "Send the link again"}
        </button>
      </Form>
    </aside>
  );
}
