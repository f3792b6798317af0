import { useEffect, useRef, useState } from "react";
import { useThemeChoice } from "~/lib/theme";

/**
 * The theme the page shows: the chosen one, or the system's. Null until known in the browser (the widget loads
 * after hydration anyway); follows a change of the system's theme.
 */
function useShownTheme(): "light" | "dark" | null {
  const choice = useThemeChoice();
  const [systemTheme, setSystemTheme] = useState<"light" | "dark" | null>(null);
  useEffect(() => {
    const query = window.matchMedia("(prefers-color-scheme: light)");
    const read = () => setSystemTheme(query.matches ? "light" : "dark");
    read();
    query.addEventListener("change", read);
    return () => query.removeEventListener("change", read);
  }, []);
  return choice === "system" ? systemTheme : choice;
}

/**
 * A TradingView embed loaded after hydration. The height is reserved up front (no layout shift), and when
 * the provider cannot be reached (offline, blocked) a quiet placeholder stays in its place.
 */
export function TradingViewWidget({
  script,
  config,
  height,
  title,
}: {
  script: string;
  config: Record<string, unknown>;
  height: number;
  title: string;
}) {
  const container = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const theme = useShownTheme();
  // The widget draws in its own frame and cannot read our colours: it is told the page's theme instead, under
  // whichever name its kind of widget reads, and drawn again when the theme changes.
  const configJson =
    theme === null
      ? null
      : JSON.stringify({
          ...config,
          ...("colorTheme" in config ? { colorTheme: theme } : {}),
          ...("theme" in config ? { theme } : {}),
        });

  useEffect(() => {
    const host = container.current;
    if (!host || configJson === null) return;
    const widget = document.createElement("div");
    widget.className = "tradingview-widget-container__widget";
    const tag = document.createElement("script");
    tag.src = `https://s3.tradingview.com/external-embedding/${script}`;
    tag.async = true;
    tag.type = "text/javascript";
    tag.text = configJson;
    tag.onerror = () => setFailed(true);
    host.replaceChildren(widget, tag);
    return () => host.replaceChildren();
  }, [script, configJson]);

  return (
    <figure className="relative overflow-hidden rounded-xl border border-border bg-surface" style={{ height }}>
      <figcaption className="sr-only">{title}</figcaption>
      <div ref={container} className="tradingview-widget-container h-full w-full" />
      {failed ? (
        <div className="absolute inset-0 flex items-center justify-center text-sm text-ink-muted">
          {title}: the chart is unavailable right now.
        </div>
      ) : null}
    </figure>
  );
}
