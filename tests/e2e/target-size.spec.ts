import type { Page } from "@playwright/test";
import { SMALL_TARGET_EXCEPTIONS } from "./accessibility-states";
import { clientWithRequests } from "./back-office-people";
import { DEMO_ADMIN, DEMO_CLIENT, expect, signIn, test } from "./support";

/**
 * WCAG 2.5.8 (target size, minimum): every control on the main pages is at least 24 by 24 CSS px, or has room
 * around it (a 24 px circle on its centre touches no other control, nor another small one's circle). A link inside
 * a sentence is exempt, as the criterion says, and so are the controls of SMALL_TARGET_EXCEPTIONS, each with its reason.
 */
const WIDTHS = [1366, 390];
const MIN = 24;

/** The controls too small and too close to others, one line each: the element, its size. */
function tooSmallTargets({ min, excepted }: { min: number; excepted: string[] }) {
  const selector =
    'a[href], button, input:not([type="hidden"]), select, textarea, summary, [role="button"], [tabindex]:not([tabindex="-1"])';
  const visible = (element: Element) => {
    const box = element.getBoundingClientRect();
    const style = getComputedStyle(element);
    // Hidden, or visually hidden until focused (the skip link).
    return box.width > 1 && box.height > 1 && style.visibility !== "hidden" && element.checkVisibility();
  };
  /** A link in running text: the criterion's inline exception. */
  const inSentence = (element: Element) => {
    if (element.tagName !== "A" || getComputedStyle(element).display !== "inline") return false;
    const parent = element.parentElement;
    const around = [...(parent?.childNodes ?? [])].filter((node) => node !== element);
    return around.some((node) => (node.textContent ?? "").trim().length > 0);
  };
  const targets = [...document.querySelectorAll(selector)].filter(visible).map((element) => ({
    element,
    box: element.getBoundingClientRect(),
  }));
  const centre = (box: DOMRect) => ({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
  const small = targets.filter(({ box }) => box.width < min - 0.5 || box.height < min - 0.5);
  const distanceToBox = (point: { x: number; y: number }, box: DOMRect) =>
    Math.hypot(
      Math.max(box.left - point.x, 0, point.x - box.right),
      Math.max(box.top - point.y, 0, point.y - box.bottom),
    );
  return small
    .filter(({ element }) => !inSentence(element) && !excepted.some((selector) => element.matches(selector)))
    .filter(({ element, box }) => {
      const here = centre(box);
      const crowded = targets.some(
        (other) =>
          other.element !== element &&
          !other.element.contains(element) &&
          !element.contains(other.element) &&
          distanceToBox(here, other.box) < min / 2,
      );
      const closeToSmall = small.some(
        (other) =>
          other.element !== element && Math.hypot(here.x - centre(other.box).x, here.y - centre(other.box).y) < min,
      );
      return crowded || closeToSmall;
    })
    .map(({ element, box }) => {
      const name = (element.getAttribute("aria-label") ?? element.textContent ?? "").trim().slice(0, 40);
      return `${element.tagName.toLowerCase()} "${name}" ${Math.round(box.width)}x${Math.round(box.height)}`;
    });
}

async function expectTargetsBigEnough(page: Page, paths: string[]) {
  const excepted = SMALL_TARGET_EXCEPTIONS.map((exception) => exception.selector);
  const found: string[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    for (const path of paths) {
      await page.goto(path);
      const small = await page.evaluate(tooSmallTargets, { min: MIN, excepted });
      found.push(...small.map((target) => `${path} at ${width} px: ${target}`));
    }
  }
  expect(found).toEqual([]);
}

test("the public pages' controls are 24 by 24 px or spaced apart", async ({ page }) => {
  await expectTargetsBigEnough(page, ["/", "/login", "/register", "/stocks", "/stocks/AAPL", "/trading-plan"]);
});

test("the client's main pages' controls are 24 by 24 px or spaced apart", async ({ page }) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expectTargetsBigEnough(page, [
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

test("the back office's main pages' controls are 24 by 24 px or spaced apart", async ({ page }) => {
  test.setTimeout(120_000);
  const clientId = await clientWithRequests();
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  await expectTargetsBigEnough(page, ["/admin", "/admin/transactions", "/admin/audit", `/user/${clientId}`]);
});
