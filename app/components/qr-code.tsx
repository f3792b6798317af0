/**
 * The QR is 200 px (docs/product.md, "Constants"). Black on white with a quiet zone of 4 modules in both themes,
 * never the theme's colours: a scanner needs the contrast and the white margin whatever the page around it.
 */
export function QrCode({
  path,
  size,
  label,
  pixels = 200,
}: {
  path: string;
  size: number;
  label: string;
  pixels?: number;
}) {
  const quiet = 4;
  return (
    <svg
      role="img"
      aria-label={label}
      width={pixels}
      height={pixels}
      viewBox={`${-quiet} ${-quiet} ${size + quiet * 2} ${size + quiet * 2}`}
      shapeRendering="crispEdges"
      className="rounded bg-white"
    >
      <rect x={-quiet} y={-quiet} width={size + quiet * 2} height={size + quiet * 2} fill="#fff" />
      <path d={path} fill="#000" />
    </svg>
  );
}
