import { useEffect, useRef, useState } from "react";

export const LOGO_PLACEHOLDER = "/images/logo-placeholder.svg";

/** A company logo by domain; on any failure, a quiet placeholder instead of a broken-image icon. */
export function StockLogo({ src, name, size = 48 }: { src: string | null; name: string; size?: number }) {
  const [failed, setFailed] = useState(!src);
  const image = useRef<HTMLImageElement>(null);

  // A load that failed before hydration fired its error event before React listened: check once mounted.
  useEffect(() => {
    const element = image.current;
    if (element?.complete && element.naturalWidth === 0) setFailed(true);
  }, []);

  return (
    <img
      ref={image}
      src={failed || !src ? LOGO_PLACEHOLDER : src}
      alt={`${name} logo`}
      width={size}
      height={size}
      onError={() => setFailed(true)}
      className="shrink-0 rounded-lg bg-white object-contain p-1"
    />
  );
}
