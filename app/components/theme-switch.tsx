import { type FormEvent, type ReactNode, useEffect, useRef } from "react";
import { useFetcher, useLocation } from "react-router";
import { THEME_ACTION, THEME_CHOICES, THEME_LABELS, type ThemeChoice, useThemeChoice } from "~/lib/theme";

const ICONS: Record<ThemeChoice, ReactNode> = {
  system: <path d="M3 5h18v11H3zM8 20h8M12 16v4" />,
  light: (
    <>
      <circle cx="12" cy="12" r="4" />
      <path d="M12 2v2M12 20v2M4.9 4.9l1.4 1.4M17.7 17.7l1.4 1.4M2 12h2M20 12h2M4.9 19.1l1.4-1.4M17.7 6.3l1.4-1.4" />
    </>
  ),
  dark: <path d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z" />,
};

function ThemeIcon({ choice }: { choice: ThemeChoice }) {
  return (
    <svg
      aria-hidden="true"
      width="18"
      height="18"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {ICONS[choice]}
    </svg>
  );
}

/**
 * The three choices as one group of toggle buttons, each saying whether it is the current one (aria-pressed). A
 * plain form that posts to /theme and comes back to this page, so it works without JavaScript; with it, a fetcher
 * posts the choice and the page changes at once, with no reload.
 */
function ThemeChoices({ legendClass, onChosen }: { legendClass: string; onChosen?: () => void }) {
  const choice = useThemeChoice();
  const fetcher = useFetcher({ key: "theme" });
  const location = useLocation();

  function submit(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter;
    if (!(submitter instanceof HTMLButtonElement)) return;
    event.preventDefault();
    fetcher.submit({ theme: submitter.value }, { method: "post", action: THEME_ACTION });
    onChosen?.();
  }

  return (
    <form method="post" action={THEME_ACTION} onSubmit={submit}>
      <input type="hidden" name="returnTo" value={`${location.pathname}${location.search}`} />
      <fieldset>
        <legend className={legendClass}>Theme</legend>
        <div className="flex gap-1">
          {THEME_CHOICES.map((option) => (
            <button
              key={option}
              type="submit"
              name="theme"
              value={option}
              aria-pressed={choice === option}
              className={`inline-flex min-h-9 items-center gap-1.5 rounded-md border px-2.5 py-1.5 text-sm font-medium ${
                choice === option
                  ? "border-brand bg-brand/15 text-ink"
                  : "border-border text-ink-muted hover:bg-surface-raised hover:text-ink"
              }`}
            >
              <ThemeIcon choice={option} />
              {THEME_LABELS[option]}
            </button>
          ))}
        </div>
      </fieldset>
    </form>
  );
}

/**
 * The header's theme switch at desktop width: one button showing the current theme, which opens the three
 * choices. A native disclosure (details/summary), so it opens by keyboard and without JavaScript; Escape and a
 * click elsewhere close it.
 */
export function ThemeMenu() {
  const choice = useThemeChoice();
  const details = useRef<HTMLDetailsElement>(null);

  useEffect(() => {
    const close = (event: Event) => {
      const menu = details.current;
      if (!menu?.open) return;
      if (event instanceof KeyboardEvent) {
        if (event.key !== "Escape") return;
        menu.open = false;
        menu.querySelector("summary")?.focus();
      } else if (!menu.contains(event.target as Node)) {
        menu.open = false;
      }
    };
    document.addEventListener("keydown", close);
    document.addEventListener("click", close);
    return () => {
      document.removeEventListener("keydown", close);
      document.removeEventListener("click", close);
    };
  }, []);

  return (
    <details ref={details} className="relative" data-testid="theme-menu">
      <summary
        className="inline-flex h-10 w-8 cursor-pointer list-none items-center justify-center rounded-md text-ink-muted hover:bg-surface-raised hover:text-ink [&::-webkit-details-marker]:hidden"
        title={`Theme: ${THEME_LABELS[choice]}`}
      >
        <ThemeIcon choice={choice} />
        <span className="sr-only">Theme: {THEME_LABELS[choice]}</span>
      </summary>
      <div className="absolute right-0 top-full z-50 mt-2 rounded-lg border border-border bg-surface p-3 shadow-lg">
        <ThemeChoices
          legendClass="mb-2 text-xs font-medium text-ink-muted"
          onChosen={() => {
            // Closed, and focus back on its button rather than lost with the hidden choice.
            if (!details.current) return;
            details.current.open = false;
            details.current.querySelector("summary")?.focus();
          }}
        />
      </div>
    </details>
  );
}

/** The same choices laid out in the phone's menu, under their name. */
export function ThemeChoicesInline() {
  return (
    <div className="px-2 py-2">
      <ThemeChoices legendClass="mb-2 text-sm font-medium text-ink-muted" />
    </div>
  );
}
