import { DEMO_ADMIN, DEMO_CLIENT, expect, signIn, test } from "./support";

test("a toast appears below the header and never covers its links", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  await page.goto("/deposit");
  await page.getByLabel("Payment Wallet").selectOption("USDT (TRC20)");
  await page.getByRole("button", { name: "Copy", exact: true }).click();
  const toast = page.locator("[data-sonner-toast]").first();
  await expect(toast).toBeVisible();
  const header = await page.locator("header").first().boundingBox();
  const headerBottom = header ? header.y + header.height : Number.POSITIVE_INFINITY;
  // The toast slides in: where it comes to rest is what counts.
  await expect
    .poll(async () => (await toast.boundingBox())?.y ?? Number.NEGATIVE_INFINITY, { timeout: 3_000 })
    .toBeGreaterThanOrEqual(headerBottom);
});

test("the admin's client search shows its whole placeholder, on a phone too", async ({ page }) => {
  await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(page).toHaveURL(/\/admin$/);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const search = page.getByPlaceholder("Search by name or email");
    await expect(search).toBeVisible();
    const fits = await search.evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input);
      const context = document.createElement("canvas").getContext("2d");
      if (!context) return false;
      context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const room = input.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight);
      return context.measureText(input.placeholder).width <= room;
    });
    expect([width, fits]).toEqual([width, true]);
  }
});

test("the navigation bar does not move for someone who asks for reduced motion", async ({ page }) => {
  const bar = page.locator("[data-state][aria-hidden=true].fixed").first();
  const transition = () => bar.evaluate((element) => getComputedStyle(element).transitionProperty);
  await page.goto("/about-us");
  expect(await transition()).toContain("transform");
  await page.emulateMedia({ reducedMotion: "reduce" });
  await expect.poll(transition).toBe("none");
});

test("the dashboard's Account ID stays on one line from a phone to a desktop, and breaks only after a hyphen on the narrowest", async ({
  page,
}) => {
  await signIn(page, DEMO_CLIENT.email, DEMO_CLIENT.password);
  await expect(page).toHaveURL(/\/dashboard$/);
  const id = page.getByTestId("account-id");
  await expect(id).toHaveText(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  const lines = () =>
    id.evaluate((element) =>
      Math.round(element.getBoundingClientRect().height / parseFloat(getComputedStyle(element).lineHeight)),
    );
  for (const width of [1366, 1024, 768, 640, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(lines, { message: `at ${width} px` }).toBe(1);
  }
  await page.setViewportSize({ width: 320, height: 700 });
  await expect.poll(lines).toBe(2);
  // The first line ends with a hyphen: no group of the ID is cut.
  const firstLine = await id.evaluate((element) => {
    const range = document.createRange();
    const text = element.textContent ?? "";
    const top = element.getBoundingClientRect().top;
    let end = 0;
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    let offset = 0;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < (node.textContent ?? "").length; i++) {
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        if (range.getBoundingClientRect().top - top < 5) end = offset + i + 1;
      }
      offset += (node.textContent ?? "").length;
    }
    return text.slice(0, end);
  });
  expect(firstLine).toMatch(/-$/);
});
