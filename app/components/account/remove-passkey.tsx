import { useState } from "react";
import { Form } from "react-router";
import { Modal } from "~/components/modal";

const removeClass = "rounded-md border border-danger/50 px-4 py-2 text-sm font-medium text-danger hover:bg-danger/10";

/**
 * A passkey's Remove button. Removing an account's last second factor turns two-factor sign-in off, so that one
 * asks first, in a dialog that says so; the server refuses it without the dialog's confirmation too.
 */
export function RemovePasskey({ id, name, turnsOff }: { id: string; name: string; turnsOff: boolean }) {
  const [open, setOpen] = useState(false);
  const form = (confirmed: boolean, label: string) => (
    <Form method="post" action="/account/passkeys" preventScrollReset>
      <input type="hidden" name="id" value={id} />
      {confirmed ? <input type="hidden" name="turnsOff" value="confirmed" /> : null}
      <button type="submit" name="intent" value="remove" aria-label={label} className={removeClass}>
        {confirmed ? "Remove and turn it off" : "Remove"}
      </button>
    </Form>
  );
  if (!turnsOff) return form(false, `Remove passkey ${name}`);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)} aria-label={`Remove passkey ${name}`} className={removeClass}>
        Remove
      </button>
      <Modal
        open={open}
        title="Turn two-factor sign-in off?"
        onClose={() => setOpen(false)}
        closeLabel="Keep it"
        actions={form(true, `Remove and turn it off: passkey ${name}`)}
      >
        <p className="text-sm">
          {name} is your last passkey. Without it, two-factor sign-in is off: your password alone signs you in, and your
          recovery codes stop working.
        </p>
      </Modal>
    </>
  );
}
