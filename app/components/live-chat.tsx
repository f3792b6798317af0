import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

declare global {
  interface Window {
    Tawk_API?: { onLoad?: () => void; addEvent?: (name: string, data: Record<string, string>) => void };
    Tawk_LoadStart?: Date;
  }
}

/**
 * The live-chat loader (tawk.to), only when configured: it loads once the page is interactive and idle, and
 * every client-side navigation is reported to it so the agent sees the page the visitor is on.
 */
export function LiveChat({ tawkId }: { tawkId?: string | null }) {
  const location = useLocation();
  const loaded = useRef(false);

  useEffect(() => {
    if (!tawkId || loaded.current) return;
    loaded.current = true;
    const load = () => {
      window.Tawk_API = window.Tawk_API ?? {};
      window.Tawk_LoadStart = new Date();
      const script = document.createElement("script");
      script.src = `https://embed.tawk.to/${tawkId}`;
      script.async = true;
      script.charset = "UTF-8";
      script.crossOrigin = "anonymous";
      document.body.appendChild(script);
    };
    if ("requestIdleCallback" in window) window.requestIdleCallback(load, { timeout: 4_000 });
    else setTimeout(load, 2_000);
  }, [tawkId]);

  useEffect(() => {
    if (!tawkId) return;
    window.Tawk_API?.addEvent?.("page-view", { path: location.pathname });
  }, [tawkId, location.pathname]);

  return null;
}
