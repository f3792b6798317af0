import { useCallback, useEffect, useRef, useState } from "react";
import { useFetcher, useNavigate } from "react-router";
import { SessionEndingDialog } from "~/components/session-ending-dialog";
import { latestActivity, writeSharedActivity } from "~/lib/shared-activity";
import { INACTIVITY_CHECK_MS, INACTIVITY_TIMEOUT_MS, INACTIVITY_WARNING_MS } from "~/lib/timers";

/**
 * Caught on the way down (capture), so that focus moving between fields and scrolling inside a panel count too, and
 * `input` so that text pasted or filled in by the browser does.
 */
const ACTIVITY_EVENTS = ["mousemove", "pointerdown", "keydown", "input", "click", "scroll", "focus"] as const;
/** The browser's own mousemove when the page changes under a resting pointer: no movement, so nobody is there. */
function isResting(event?: Event): boolean {
  return event instanceof MouseEvent && event.type === "mousemove" && event.movementX === 0 && event.movementY === 0;
}
/** How often, at most, activity in the page is reported to the server's idle window. */
const HEARTBEAT_MS = 5 * 60 * 1_000;

/**
 * Activity (mouse, keys, typing in a field, clicks, scrolling, focus, the tab becoming visible) in any tab keeps a
 * signed-in user's session alive. After 28 idle minutes a dialog warns that the session ends in 2 minutes and offers
 * 'Stay signed in' and 'Sign out'; at 30 the browser signs out and returns home (docs/product.md, "Accounts and
 * sessions"). A keepalive the server answers 401 means the session has already ended: the page goes to sign-in.
 */
export function ActivityTracker() {
  const lastActivity = useRef(Date.now());
  const lastHeartbeat = useRef(Date.now());
  const warningOpen = useRef(false);
  const stopped = useRef(false);
  const [endsAt, setEndsAt] = useState<number | null>(null);
  const [now, setNow] = useState(() => Date.now());
  const navigate = useNavigate();
  const { submit: submitSignOut } = useFetcher();

  const closeWarning = useCallback(() => {
    warningOpen.current = false;
    setEndsAt(null);
  }, []);

  const signOut = useCallback(() => {
    stopped.current = true;
    closeWarning();
    submitSignOut(null, { method: "post", action: "/logout" });
  }, [closeWarning, submitSignOut]);

  const sendKeepalive = useCallback(async () => {
    lastHeartbeat.current = Date.now();
    const response = await fetch("/session/keepalive", { method: "POST" }).catch(() => null);
    if (response?.status !== 401 || stopped.current) return;
    // Ended on the server (idle there, or ended from another device): say so by going to sign-in, not by staying.
    stopped.current = true;
    closeWarning();
    const here = `${window.location.pathname}${window.location.search}`;
    navigate(`/login?redirectTo=${encodeURIComponent(here)}`);
  }, [closeWarning, navigate]);

  const staySignedIn = useCallback(() => {
    // The dialog's close event calls this again after the button did; only the first counts.
    if (!warningOpen.current) return;
    closeWarning();
    lastActivity.current = Date.now();
    writeSharedActivity(lastActivity.current);
    void sendKeepalive();
  }, [closeWarning, sendKeepalive]);

  useEffect(() => {
    writeSharedActivity(lastActivity.current);
    const markActive = (event?: Event) => {
      // While the warning is open only its buttons answer it: a mouse passing over the page does not.
      if (warningOpen.current || isResting(event)) return;
      lastActivity.current = Date.now();
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") markActive();
    };
    const options = { capture: true, passive: true };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, markActive, options);
    document.addEventListener("visibilitychange", onVisibility);

    const timer = window.setInterval(() => {
      if (stopped.current) return;
      const checkedAt = Date.now();
      const lastActive = latestActivity(lastActivity.current);
      const idle = checkedAt - lastActive;
      if (idle >= INACTIVITY_TIMEOUT_MS) {
        window.clearInterval(timer);
        signOut();
        return;
      }
      if (idle >= INACTIVITY_TIMEOUT_MS - INACTIVITY_WARNING_MS) {
        warningOpen.current = true;
        setEndsAt(lastActive + INACTIVITY_TIMEOUT_MS);
        setNow(checkedAt);
      } else if (warningOpen.current) {
        // Someone was active in another tab: the warning no longer holds.
        closeWarning();
      }
      const ownActivitySinceHeartbeat = lastActivity.current > lastHeartbeat.current;
      if (ownActivitySinceHeartbeat && checkedAt - lastHeartbeat.current >= HEARTBEAT_MS) void sendKeepalive();
    }, INACTIVITY_CHECK_MS);

    return () => {
      window.clearInterval(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, markActive, options);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [signOut, closeWarning, sendKeepalive]);

  return (
    <SessionEndingDialog
      open={endsAt !== null}
      remainingMs={endsAt === null ? INACTIVITY_WARNING_MS : endsAt - now}
      onStay={staySignedIn}
      onSignOut={signOut}
    />
  );
}
