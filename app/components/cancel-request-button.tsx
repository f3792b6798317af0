import { useEffect, useRef, useState } from "react";
import { useFetcher, useLocation } from "react-router";
import { Modal } from "~/components/modal";
import { formatCents } from "~/lib/format";
import { typeInSentence } from "~/lib/labels";
import type { TransactionType } from "~/lib/ledger";

/**
 * 'Cancel' on a client's pending request, with a confirm dialog. It posts to /requests/{id}/cancel, which comes
 * back to this page with a toast; the page's data (balances included) reloads after the action. The dialog is made
 * at the first press, not rendered closed into every pending row of the page (the button needs JavaScript anyway).
 */
export function CancelRequestButton({
  request,
}: {
  request: { id: number; transactionType: TransactionType; amountCents: number };
}) {
  const [open, setOpen] = useState(false);
  const [asked, setAsked] = useState(false);
  const fetcher = useFetcher();
  const location = useLocation();
  const sent = useRef(false);
  const busy = fetcher.state !== "idle";
  const what = `${typeInSentence(request.transactionType)} of ${formatCents(request.amountCents)}`;

  useEffect(() => {
    if (busy) sent.current = true;
    else if (sent.current) {
      sent.current = false;
      setOpen(false);
    }
  }, [busy]);

  return (
    <>
      <button
        type="button"
        onClick={() => {
          setAsked(true);
          setOpen(true);
        }}
        aria-label={`Cancel ${what}`}
        className="row-action-cancel"
      >
        Cancel
      </button>
      {asked ? (
        <Modal
          open={open}
          title="Cancel this request?"
          onClose={() => setOpen(false)}
          // The safe choice is the dialog's one way out, and comes first: the dialog focuses it as it opens, so Enter
          // never cancels by accident.
          closeLabel="Keep it"
          actions={
            <fetcher.Form method="post" action={`/requests/${request.id}/cancel`}>
              <input type="hidden" name="redirectTo" value={`${location.pathname}${location.search}`} />
              <button type="submit" disabled={busy} className="button-danger text-sm">
                {busy ? "Cancelling..." : "Cancel request"}
              </button>
            </fetcher.Form>
          }
        >
          <p className="text-sm">
            Your {what.toLowerCase()} will be cancelled and will not be processed.
            {request.transactionType === "withdraw" ? " The reserved amount becomes available again at once." : ""}
          </p>
        </Modal>
      ) : null}
    </>
  );
}
