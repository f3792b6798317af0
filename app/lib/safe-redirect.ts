const SAME_SITE = "http://same-site.invalid";

/**
 * Where to go after signing in, if `to` is a path of this site; `fallback` otherwise. A path starts with one
 * '/', with neither a second '/' nor a '\' right after it (both would make it another host), and has no
 * backslash or control character anywhere (browsers drop tabs and newlines, turning "/\t/evil" into
 * "//evil"). What is left must still resolve to this site.
 */
export function safeRedirect(to: string | null | undefined, fallback: string): string {
  if (typeof to !== "string" || !to.startsWith("/") || to.startsWith("//")) return fallback;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
  if (/[\\\u0000-\u001f\u007f-\u009f]/.test(to)) return fallback;
  try {
    if (new URL(to, SAME_SITE).origin !== SAME_SITE) return fallback;
  } catch {
    return fallback;
  }
  return to;
}
