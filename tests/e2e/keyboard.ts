/**
 * A person with a keyboard only: Tab and Shift+Tab to move, Enter and Space to act. Every stop must show where
 * focus is (an outline or a ring, WCAG 2.4.7) and must not sit under the sticky header (WCAG 2.4.11).
 */
import type { Locator, Page } from "@playwright/test";
import { expect } from "./support";

/** Where focus is and how it shows: the focused element's box, its outline and ring, and the header's box. */
function focusStop() {
  const element = document.activeElement as HTMLElement | null;
  if (!element || element === document.body) return null;
  const style = getComputedStyle(element);
  const box = element.getBoundingClientRect();
  // The site header comes first in the page.
  const header = document.querySelector("header");
  const headerBox = header?.getBoundingClientRect();
  const inTopLayer = Boolean(element.closest("dialog[open]"));
  const outline = style.outlineStyle !== "none" && Number.parseFloat(style.outlineWidth) > 0;
  // Tailwind's ring is a box-shadow of its own.
  const ring = style.boxShadow !== "none" && /\d+px/.test(style.boxShadow);
  // Covered: the element's box meets the header's, and where they meet, the header is what is drawn on top (a
  // skip link shown over the header is not covered).
  let underHeader = false;
  if (header && headerBox && !header.contains(element) && !inTopLayer) {
    const top = Math.max(box.top, headerBox.top);
    const bottom = Math.min(box.bottom, headerBox.bottom);
    if (bottom > top) {
      const onTop = document.elementFromPoint(box.left + box.width / 2, (top + bottom) / 2);
      underHeader = Boolean(onTop && header.contains(onTop));
    }
  }
  return {
    name: `${element.tagName.toLowerCase()}${element.getAttribute("name") ? `[name=${element.getAttribute("name")}]` : ""} "${(element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40)}"`,
    shown: outline || ring,
    underHeader,
  };
}

/** The focused element shows it is focused, and the sticky header does not cover it. */
export async function expectFocusShown(page: Page) {
  const stop = await page.evaluate(focusStop);
  expect(stop, "something has the focus").not.toBeNull();
  expect(stop?.shown, `${stop?.name} shows its focus`).toBe(true);
  expect(stop?.underHeader, `${stop?.name} is not under the sticky header`).toBe(false);
}

/** Presses Tab (or Shift+Tab) until `target` has the focus, checking every stop on the way. */
export async function tabTo(page: Page, target: Locator, { backwards = false, most = 80 } = {}) {
  for (let presses = 0; presses < most; presses++) {
    await page.keyboard.press(backwards ? "Shift+Tab" : "Tab");
    if (await page.evaluate(() => document.activeElement !== document.body)) await expectFocusShown(page);
    if (await target.evaluate((element) => element === document.activeElement)) return;
  }
  throw new Error(`Tab did not reach ${target} in ${most} presses`);
}

/** Types into the focused field, as a person does (the field was reached with Tab). */
export async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await page.keyboard.type(text);
  await expect(field).toHaveValue(text);
}

/**
 * In an open dialog: focus starts inside, Tab and Shift+Tab go round its controls and never leave it, and Escape
 * closes it and gives the focus back to `opener`.
 */
export async function expectDialogTrapsFocus(page: Page, dialog: Locator, opener: Locator) {
  await expect(dialog).toBeVisible();
  const focusInDialog = () => dialog.evaluate((element) => element.contains(document.activeElement));
  expect(await focusInDialog(), "focus moved into the dialog").toBe(true);
  const stops = await dialog.locator("button, input, select, textarea, a[href]").count();
  for (const key of ["Tab", "Shift+Tab"]) {
    for (let presses = 0; presses < stops + 2; presses++) {
      await page.keyboard.press(key);
      expect(await focusInDialog(), `${key} keeps the focus in the dialog`).toBe(true);
      await expectFocusShown(page);
    }
  }
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  await expect(opener).toBeFocused();
}
