import { Modal } from "~/components/modal";
import { INACTIVITY_TIMEOUT_MS, INACTIVITY_WARNING_MS } from "~/lib/timers";

export const SESSION_ENDING_TITLE = `Your session will end in ${INACTIVITY_WARNING_MS / 60_000} minutes`;

/** 1:42 for 102 seconds; a part second counts as a whole one, so 0:00 shows only at the end. */
function minutesAndSeconds(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1_000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
}

/**
 * The warning before the inactivity sign-out. An alert dialog: screen readers read its title and text as it opens,
 * and focus goes to 'Stay signed in' (Escape does the same). The countdown is a timer, which screen readers do not
 * read each second; the last minute is announced once.
 */
export function SessionEndingDialog({
  open,
  remainingMs,
  onStay,
  onSignOut,
}: {
  open: boolean;
  remainingMs: number;
  onStay: () => void;
  onSignOut: () => void;
}) {
  const lastMinute = remainingMs <= 60_000;
  return (
    <Modal
      open={open}
      role="alertdialog"
      title={SESSION_ENDING_TITLE}
      onClose={onStay}
      closeLabel="Stay signed in"
      actions={
        <button
          type="button"
          onClick={onSignOut}
          className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-surface-raised"
        >
          Sign out
        </button>
      }
    >
      <p className="text-sm">
        For your security you are signed out after {INACTIVITY_TIMEOUT_MS / 60_000} minutes without activity. Choose
        Stay signed in to keep working.
      </p>
      <p className="mt-2 text-sm">
        Time left:{" "}
        <span role="timer" className="font-semibold tabular-nums">
          {minutesAndSeconds(remainingMs)}
        </span>
      </p>
      <p aria-live="polite" className="sr-only">
        {open && lastMinute ? "Less than a minute left." : ""}
      </p>
    </Modal>
  );
}
