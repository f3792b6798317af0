/**
 * "Chrome on macOS" from a User-Agent header: only for people to recognise their own sessions and sign-ins
 * (sessions list, sign-in activity, security notices). Nothing is decided on it, so a short table of the
 * common browsers and systems is enough; anything else reads "Unknown browser".
 */
const BROWSERS: Array<[RegExp, string]> = [
  // In-app browsers first: their agents also carry the engine's name (Chrome on Android, Safari's on iOS).
  [/\bFBAN\/|\bFBAV\/|\bFB_IAB\//, "Facebook app"],
  [/\bInstagram\b/, "Instagram app"],
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOPT\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bYaBrowser\//, "Yandex Browser"],
  [/\bVivaldi\//, "Vivaldi"],
  [/\bUCBrowser\//, "UC Browser"],
  [/\bDdg\/|\bDuckDuckGo\//, "DuckDuckGo"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bMSIE |\bTrident\//, "Internet Explorer"],
  [/\bChrome\/|\bCriOS\/|\bChromium\/|\bHeadlessChrome\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
];

const SYSTEMS: Array<[RegExp, string]> = [
  [/\biPhone|\biPad|\biPod/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

const firstMatch = (table: Array<[RegExp, string]>, value: string) =>
  table.find(([pattern]) => pattern.test(value))?.[1] ?? null;

export function describeBrowser(userAgent: string | null | undefined): string {
  if (!userAgent) return "Unknown browser";
  const browser = firstMatch(BROWSERS, userAgent);
  const system = firstMatch(SYSTEMS, userAgent);
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `A browser on ${system}` : "Unknown browser");
}

/** "Berlin, DE" from Cloudflare's city and country, as far as they are known. */
export function describeLocation(place: { city?: string | null; country?: string | null }): string {
  return [place.city, place.country].filter(Boolean).join(", ") || "Unknown location";
}
