import { type FormEvent, useEffect, useRef } from "react";
import { useFetcher, useLocation } from "react-router";
import { THEME_ACTION, THEME_CHOICES, THEME_LABELS, useThemeChoice } from "~/lib/theme";

// Its looks and icons are classes of app/tailwind.css ("The theme switch"): every page sends this component, and
// the stylesheet is not counted against the routes' JavaScript budgets.

/**
 * The three choices as toggle buttons in a fieldset named Theme, each saying whether it is the current one
 * (aria-pressed). A plain form that posts to /theme and comes back to this page, so it works without JavaScript;
 * with it, a fetcher posts the choice and the page changes at once, with no reload.
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
      <input type="hidden" name="returnTo" value={location.pathname + location.search} />
      <fieldset className="theme-choices">
        <legend className={legendClass}>Theme</legend>
        <div>
          {THEME_CHOICES.map((option) => (
            <button
              key={option}
              type="submit"
              name="theme"
              value={option}
              aria-pressed={choice === option}
              className={`theme-choice theme-icon-${option}`}
            >
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
 * click elsewhere close it, and a choice closes it with focus back on its button.
 */
export function ThemeMenu() {
  const choice = useThemeChoice();
  const details = useRef<HTMLDetailsElement>(null);
  const close = (focus: boolean) => {
    const menu = details.current;
    if (!menu?.open) return;
    menu.open = false;
    if (focus) menu.querySelector("summary")?.focus();
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `close` reads only the ref
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => event.key === "Escape" && close(true);
    const onClick = (event: MouseEvent) => details.current?.contains(event.target as Node) || close(false);
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);

  const name = `Theme: ${THEME_LABELS[choice]}`;
  return (
    <details ref={details} className="theme-menu" data-testid="theme-menu">
      <summary className={`theme-icon-${choice}`} title={name}>
        <span className="sr-only">{name}</span>
      </summary>
      <div>
        <ThemeChoices legendClass="mb-2 text-xs font-medium text-ink-muted" onChosen={() => close(true)} />
      </div>
    </details>
  );
}

/** The same choices in the phone's menu, under their name. */
export function ThemeChoicesInline() {
  return (
    <div className="px-2 py-2">
      <ThemeChoices legendClass="mb-2 text-sm font-medium text-ink-muted" />
    </div>
  );
}
