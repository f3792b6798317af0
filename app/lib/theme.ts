import { useFetchers, useRouteLoaderData } from "react-router";

/** The visitor's choice: the system's theme (prefers-color-scheme), or one of the two whatever the system says. */
export const THEME_CHOICES = ["system", "light", "dark"] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

export const THEME_LABELS: Record<ThemeChoice, string> = { system: "System", light: "Light", dark: "Dark" };

export const isThemeChoice = (value: unknown): value is ThemeChoice =>
  typeof value === "string" && (THEME_CHOICES as readonly string[]).includes(value);

/** Where the switch posts: app/routes/theme.ts. */
export const THEME_ACTION = "/theme";

/**
 * The canvas colour of each theme, for <meta name="theme-color"> (a phone's browser bar), which cannot read CSS.
 * They must equal --color-canvas in app/tailwind.css; tests/scripts/theme-contrast.test.ts checks that they do.
 */
export const THEME_CANVAS = { light: "#f3f5f9", dark: "#0b1220" } as const;

/**
 * The theme the page shows now: the one being posted while the switch's request is under way (so a choice shows
 * at once), else the root loader's, read from the cookie.
 */
export function useThemeChoice(): ThemeChoice {
  const rootData = useRouteLoaderData("root") as { theme?: ThemeChoice } | undefined;
  const posting = useFetchers()
    .find((fetcher) => fetcher.formAction === THEME_ACTION)
    ?.formData?.get("theme");
  if (isThemeChoice(posting)) return posting;
  return rootData?.theme ?? "system";
}
