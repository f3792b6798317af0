import type { Page } from "@playwright/test";
import { clientWithRequests } from "./back-office-people";
import { DEMO_ADMIN, DEMO_CLIENT, expect, signIn, test } from "./support";

/**
 * WCAG 1.4.10 (reflow) and 1.4.4 (resize text): at 320 CSS px wide (1280 px at 400%) and at 683 px (1366 px at
 * 200% zoom) a page scrolls only up and down, and nothing is cut off or pushed out of the screen. A table may
 * scroll sideways inside its own box, as the criterion allows.
 */
const WIDTHS = [320, 683];

/** What a person at this width cannot read: the page scrolls sideways, or a text runs out of the screen or its box. */
function lostContent() {
  const lost: string[] = [];
  const width = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > width) {
    lost.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px in ${width})`);
  }
  const scrollsInside = (element: Element) => {
    for (let at = element.parentElement; at; at = at.parentElement) {
      const overflow = getComputedStyle(at).overflowX;
      if (overflow === "auto" || overflow === "scroll") return true;
    }
    return false;
  };
  const isVisuallyHidden = (element: Element) => {
    const box = element.getBoundingClientRect();
    return box.width <= 1 || box.height <= 1 || !element.checkVisibility();
  };
  for (const element of document.querySelectorAll("body *")) {
    if (isVisuallyHidden(element) || scrollsInside(element)) continue;
    const ownText = [...element.childNodes].some(
      (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? "").trim(),
    );
    if (!ownText) continue;
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    const name = `${element.tagName.toLowerCase()} "${(element.textContent ?? "").trim().slice(0, 40)}"`;
    if (box.right > width + 1 || box.left < -1) lost.push(`${name} runs out of the screen`);
    const clips = style.overflowX === "hidden" || style.overflowX === "clip";
    // A one-line `truncate` with the whole text in its title or next to it is a choice, not a loss.
    if (clips && element.scrollWidth > element.clientWidth + 1 && !element.getAttribute("title")) {
      lost.push(`${name} is cut off`);
    }
  }
  return lost;
}

async function expectReflow(page: Page, paths: string[]) {
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 800 });
    for (const path of paths) {
      await page.goto(path);
      found.push(...(await page.evaluate(lostContent)).map((problem) => `${path} at ${width} px: ${problem}`));
    }
  }
  expect(found).toEqual([]);
}

test("the public pages reflow at 320 px and at 200% zoom", async ({ page }) => {
  await expectReflow(page, ["/", "/login", "/register", "/stocks", "/stocks/AAPL", "/trading-plan", "/about-us"]);
});

test("the client's main pages reflow at 320 px and at 200% zoom", async ({ page }) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectReflow(page, [
    "/dashboard",
    "/portfolio",
    "/transactions",
    "/statements",
    "/deposit",
    "/withdraw",
    "/account",
    "/notifications",
  ]);
});

test("the back office's main pages reflow at 320 px and at 200% zoom", async ({ page }) => {
  test.setTimeout(120_000);
  const clientId = await clientWithRequests();
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  await expectReflow(page, ["/admin", "/admin/transactions", "/admin/audit", `/user/${clientId}`]);
});
