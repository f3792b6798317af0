import qrcode from "qrcode-generator";

/**
 * A QR code as one SVG path (one unit square per dark module) and its size in modules, computed on the
 * server so the page needs no QR library in the browser.
 */
export function qrPath(text: string): { path: string; size: number } {
  const qr = qrcode(0, "M");
  qr.addData(text);
  qr.make();
  const size = qr.getModuleCount();
  let path = "";
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      if (qr.isDark(row, col)) path += `M${col} ${row}h1v1h-1z`;
    }
  }
  return { path, size };
}
