import { useEffect, useId, useRef, useState } from "react";

declare global {
  interface Window {
    googleTranslateElementInit?: () => void;
    google?: {
      translate?: { TranslateElement: new (options: { pageLanguage: string }, elementId: string) => unknown };
    };
  }
}

const SCRIPT_SRC = "https://translate.google.com/translate_a/element.js?cb=googleTranslateElementInit";

/**
 * The footer's language selector (source language English). The translation script loads only when a visitor
 * opens the selector, so no page waits for it; offline or blocked, a quiet note takes its place.
 */
export function LanguageSelector() {
  const [open, setOpen] = useState(false);
  const [state, setState] = useState<"idle" | "loading" | "ready" | "failed">("idle");
  const elementId = useId().replace(/:/g, "");
  const requested = useRef(false);

  useEffect(() => {
    if (!open || requested.current) return;
    requested.current = true;
    setState("loading");
    window.googleTranslateElementInit = () => {
      const TranslateElement = window.google?.translate?.TranslateElement;
      if (!TranslateElement) return setState("failed");
      new TranslateElement({ pageLanguage: "en" }, elementId);
      setState("ready");
    };
    const script = document.createElement("script");
    script.src = SCRIPT_SRC;
    script.async = true;
    script.onerror = () => setState("failed");
    document.body.appendChild(script);
  }, [open, elementId]);

  return (
    <div className="text-sm">
      <button
        type="button"
        aria-expanded={open}
        aria-controls={elementId}
        onClick={() => setOpen((value) => !value)}
        className="rounded-md border border-border px-3 py-1.5 hover:bg-surface-raised"
      >
        Language: English
      </button>
      <div id={elementId} hidden={!open} className="mt-2 min-h-6">
        {state === "loading" ? <span className="text-ink-muted">Loading languages…</span> : null}
        {state === "failed" ? <span className="text-ink-muted">Translation is unavailable right now.</span> : null}
      </div>
    </div>
  );
}
