import { type KeyboardEvent, type ReactNode, useEffect, useId, useRef } from "react";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/**
 * Tab from the dialog's last control goes back to its first (Shift+Tab the other way): a native modal dialog makes
 * the page behind it inert, but lets Tab leave for the browser's own toolbar, and a keyboard user is then lost.
 */
function keepTabInside(event: KeyboardEvent<HTMLDialogElement>) {
  if (event.key !== "Tab") return;
  const controls = [...event.currentTarget.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (control) => control.offsetParent !== null,
  );
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const leaving = event.shiftKey ? document.activeElement === first : document.activeElement === last;
  if (!leaving) return;
  event.preventDefault();
  (event.shiftKey ? last : first).focus();
}

/**
 * A native modal dialog: focus is trapped, and there is one way out, its close button (keyboard reachable; Escape
 * closes too). `closeLabel` names it where 'Close' says too little ('Keep it' beside 'Cancel request'); `actions`
 * stand beside it, after it, so that the way out is what the dialog focuses first when nothing in the content
 * takes focus. Long words (an address in a title, in the content) wrap inside the dialog, never past its edge.
 * `role="alertdialog"` is for a dialog that opens unasked (a warning): screen readers read its content as it opens.
 */
export function Modal({
  open,
  title,
  onClose,
  closeLabel = "Close",
  actions,
  role,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  closeLabel?: string;
  actions?: ReactNode;
  role?: "alertdialog";
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const contentId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      role={role}
      aria-labelledby={titleId}
      aria-describedby={role === "alertdialog" ? contentId : undefined}
      onClose={onClose}
      onKeyDown={keepTabInside}
      className="m-auto w-[min(92vw,26rem)] rounded-xl border border-border bg-surface p-6 text-ink wrap-anywhere backdrop:bg-black/70"
    >
      <h2 id={titleId} className="text-lg font-semibold">
        {title}
      </h2>
      <div id={contentId} className="mt-4">
        {children}
      </div>
      <div className="mt-6 flex flex-wrap justify-end gap-2">
        <button
          type="button"
          onClick={onClose}
          className="rounded-md border border-border px-4 py-2 text-sm font-medium hover:bg-surface-raised"
        >
          {closeLabel}
        </button>
        {actions}
      </div>
    </dialog>
  );
}
