import { useEffect, useRef, useState } from "react";

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
  const configJson = JSON.stringify(config);

  useEffect(() => {
    const host = container.current;
    if (!host) return;
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
