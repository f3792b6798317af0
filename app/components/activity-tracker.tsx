import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import { INACTIVITY_CHECK_MS, INACTIVITY_TIMEOUT_MS } from "~/lib/timers";

const ACTIVITY_EVENTS = ["mousemove", "keydown", "click", "scroll", "focus"] as const;
/** How often, at most, activity in the page is reported to the server's idle window. */
const HEARTBEAT_MS = 5 * 60 * 1_000;

/**
 * Activity (mouse, keys, clicks, scrolling, the tab becoming visible or focused) keeps a
 * signed-in user's session alive; 30 minutes without any signs them out and returns them home
 * (docs/product.md, "Accounts and sessions").
 */
export function ActivityTracker() {
  const lastActivity = useRef(Date.now());
  const lastHeartbeat = useRef(Date.now());
  const { submit: submitSignOut } = useFetcher();
  const { submit: submitHeartbeat } = useFetcher();

  useEffect(() => {
    const markActive = () => {
      lastActivity.current = Date.now();
    };
    const onVisibility = () => {
      if (document.visibilityState === "visible") markActive();
    };
    for (const name of ACTIVITY_EVENTS) window.addEventListener(name, markActive, { passive: true });
    document.addEventListener("visibilitychange", onVisibility);

    const timer = window.setInterval(() => {
      const now = Date.now();
      if (now - lastActivity.current >= INACTIVITY_TIMEOUT_MS) {
        window.clearInterval(timer);
        submitSignOut(null, { method: "post", action: "/logout" });
        return;
      }
      if (lastActivity.current > lastHeartbeat.current && now - lastHeartbeat.current >= HEARTBEAT_MS) {
        lastHeartbeat.current = now;
        submitHeartbeat(null, { method: "post", action: "/session/keepalive" });
      }
    }, INACTIVITY_CHECK_MS);

    return () => {
      window.clearInterval(timer);
      for (const name of ACTIVITY_EVENTS) window.removeEventListener(name, markActive);
      document.removeEventListener("visibilitychange", onVisibility);
    };
  }, [submitSignOut, submitHeartbeat]);

  return null;
}
