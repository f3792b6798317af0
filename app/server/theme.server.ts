import { isThemeChoice, type ThemeChoice } from "~/lib/theme";
import { cookieName, plainSetCookie, readCookies } from "./cookies.server";

type CookieEnv = { ENVIRONMENT?: string };

const THEME_COOKIE = "theme";
/** A year: a choice of look is kept until changed (browsers cap a cookie's life at 400 days anyway). */
const THEME_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The visitor's theme from its cookie; "system" when there is none or it holds anything else. */
export function readThemeChoice(request: Request, env: CookieEnv): ThemeChoice {
  const value = readCookies(request.headers.get("Cookie"))[cookieName(env, THEME_COOKIE)];
  return isThemeChoice(value) ? value : "system";
}

/**
 * The Set-Cookie that remembers a choice. "system" clears the cookie rather than storing it: the page is then the
 * same for every visitor again, and public pages can come from the edge cache (which any other cookie bypasses).
 */
export function themeSetCookie(env: CookieEnv, choice: ThemeChoice): string {
  return choice === "system"
    ? plainSetCookie(env, THEME_COOKIE, "", 0)
    : plainSetCookie(env, THEME_COOKIE, choice, THEME_MAX_AGE_SECONDS);
}
