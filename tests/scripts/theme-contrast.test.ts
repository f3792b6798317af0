/**
 * The colour tokens meet WCAG AA in both themes: every text-on-background pair the pages use at rest reaches 4.5:1
 * (text) and the edges that mark a control or a focus reach 3:1 (WCAG 1.4.11). The values are read from the one
 * place they are written, the `@theme` block of app/tailwind.css (`--color-x: light-dark(light, dark)`), so a
 * token changed there is checked here. Run with `node --test tests/scripts/theme-contrast.test.ts`.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { THEME_CANVAS } from "../../app/lib/theme.ts";

const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];
type Rgb = [number, number, number];

/** Each `--color-*: light-dark(#light, #dark)` of the stylesheet's @theme block, by token name. */
function readTokens(): Record<string, Record<Theme, string>> {
  const css = readFileSync(join(import.meta.dirname, "../../app/tailwind.css"), "utf8");
  const block = /@theme\s*\{([^}]*)\}/.exec(css)?.[1];
  assert.ok(block, "app/tailwind.css has an @theme block");
  const tokens: Record<string, Record<Theme, string>> = {};
  for (const [, name, light, dark] of block.matchAll(
    /--color-([\w-]+):\s*light-dark\(\s*(#[0-9a-f]{6})\s*,\s*(#[0-9a-f]{6})\s*\)/gi,
  )) {
    tokens[name as string] = { light: light as string, dark: dark as string };
  }
  return tokens;
}

const TOKENS = readTokens();

/** A token's colour in a theme; `white` is Tailwind's own, the same in both. */
function colour(token: string, theme: Theme): Rgb {
  const hex = token === "white" ? "#ffffff" : TOKENS[token]?.[theme];
  assert.ok(hex, `--color-${token} is a light-dark() token of app/tailwind.css`);
  return [1, 3, 5].map((at) => Number.parseInt(hex.slice(at, at + 2), 16)) as Rgb;
}

/** `fg` at `alpha` over `bg`, as Tailwind's `bg-x/15` over the page shows it. */
const over = (fg: Rgb, alpha: number, bg: Rgb): Rgb =>
  fg.map((c, i) => c * alpha + (bg[i] as number) * (1 - alpha)) as Rgb;

/** WCAG 2 relative luminance and contrast ratio. */
function luminance(rgb: Rgb): number {
  const [r, g, b] = rgb.map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}
function contrast(a: Rgb, b: Rgb): number {
  const [high, low] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (high + 0.05) / (low + 0.05);
}

/** A foreground on a background: a token, or a token's tint (`bg-success/15`) over a page background. */
type Background = string | { tint: string; alpha: number; over: string };
interface Pair {
  fg: string;
  bg: Background;
  min: number;
  /** Where the pair is seen, for the failure message. */
  use: string;
}

const PAGE_BACKGROUNDS = ["canvas", "surface", "surface-raised"];
const TEXT_TOKENS = ["ink", "ink-muted", "brand", "success", "danger", "pending"];

/** The pairs the pages use at rest (hover tints excepted), text at 4.5:1 and edges at 3:1. */
const PAIRS: Pair[] = [
  // Text, links and amounts on the page, its cards and its raised rows.
  ...PAGE_BACKGROUNDS.flatMap((bg) => TEXT_TOKENS.map((fg) => ({ fg, bg, min: 4.5, use: `text-${fg} on bg-${bg}` }))),
  // Badges, notices and row actions: a colour on its own tint, on the page or a card.
  ...["canvas", "surface"].flatMap((page) =>
    (
      [
        ["success", 0.1],
        ["success", 0.15],
        ["success", 0.2],
        ["danger", 0.1],
        ["danger", 0.15],
        ["danger", 0.2],
        ["pending", 0.1],
        ["pending", 0.15],
        ["brand", 0.15],
        ["ink-muted", 0.15],
      ] as const
    ).map(([fg, alpha]) => ({
      fg,
      bg: { tint: fg, alpha, over: page },
      min: 4.5,
      use: `text-${fg} on bg-${fg}/${alpha * 100} over bg-${page}`,
    })),
  ),
  ...["canvas", "surface"].flatMap((page) => [
    { fg: "ink", bg: { tint: "brand", alpha: 0.2, over: page }, min: 4.5, use: `a tag's text-ink on bg-brand/20` },
    { fg: "ink", bg: { tint: "brand", alpha: 0.1, over: page }, min: 4.5, use: `a notice's text-ink on bg-brand/10` },
  ]),
  // Filled buttons and the skip link.
  { fg: "white", bg: "brand-strong", min: 4.5, use: "a primary button, the skip link" },
  { fg: "white", bg: "brand-hover", min: 4.5, use: "a primary button hovered" },
  { fg: "canvas", bg: "danger", min: 4.5, use: ".button-danger, the bell's count" },
  { fg: "canvas", bg: { tint: "danger", alpha: 0.9, over: "surface" }, min: 4.5, use: ".button-danger hovered" },
  // Focus outlines and a chart's line (brand), against where they are drawn.
  ...PAGE_BACKGROUNDS.map((bg) => ({ fg: "brand", bg, min: 3, use: `the focus outline on bg-${bg}` })),
];

/** An input's edge (border-border) against the card and page around it: 3:1 (WCAG 1.4.11). */
const EDGE_PAIRS: Pair[] = ["canvas", "surface"].map((bg) => ({
  fg: "border",
  bg,
  min: 3,
  use: `an input's border on bg-${bg}`,
}));

function background(bg: Background, theme: Theme): Rgb {
  return typeof bg === "string" ? colour(bg, theme) : over(colour(bg.tint, theme), bg.alpha, colour(bg.over, theme));
}

describe("theme tokens", () => {
  test("every colour token has a light and a dark value", () => {
    const names = Object.keys(TOKENS);
    for (const name of ["canvas", "surface", "surface-raised", "border", "brand", "brand-strong", ...TEXT_TOKENS])
      assert.ok(names.includes(name), `--color-${name} is written as light-dark(light, dark)`);
    // A colour token outside light-dark() would be the same in both themes.
    const css = readFileSync(join(import.meta.dirname, "../../app/tailwind.css"), "utf8");
    const block = /@theme\s*\{([^}]*)\}/.exec(css)?.[1] ?? "";
    const allColours = [...block.matchAll(/--color-([\w-]+):/g)].map((match) => match[1]);
    assert.deepEqual(allColours.sort(), names.sort());
  });

  test("the browser bar's colour (theme-color) is the canvas of each theme", () => {
    for (const theme of THEMES) assert.equal(THEME_CANVAS[theme], TOKENS.canvas?.[theme]);
  });

  for (const theme of THEMES) {
    test(`every pair meets WCAG AA in the ${theme} theme`, () => {
      const pairs = [...PAIRS, ...EDGE_PAIRS];
      const failures = pairs
        .map((pair) => ({ ...pair, ratio: contrast(colour(pair.fg, theme), background(pair.bg, theme)) }))
        .filter((pair) => pair.ratio < pair.min)
        .map((pair) => `${pair.use}: ${pair.ratio.toFixed(2)}:1, needs ${pair.min}:1`);
      assert.deepEqual(failures, []);
    });
  }
});
