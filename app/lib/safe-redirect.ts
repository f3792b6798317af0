/** Only same-site paths: "/dashboard" yes; "//evil.example", "https://…" and "/\\evil" no. */
export function safeRedirect(to: string | null | undefined, fallback: string): string {
  if (!to?.startsWith("/") || to.startsWith("//") || to.startsWith("/\\") || /[\r\n]/.test(to)) return fallback;
  return to;
}
