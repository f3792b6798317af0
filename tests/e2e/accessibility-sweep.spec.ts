import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { OPERATOR_STATES, OWNER_STATES, startOperator, startOwner } from "./accessibility-back-office-states";
import {
  DEMO_CLIENT_STATES,
  NEW_CLIENT_STATES,
  startDemoClient,
  startNewClient,
  startTwoFactorClient,
  TWO_FACTOR_CLIENT_STATES,
} from "./accessibility-client-states";
import { startVisitor, VISITOR_STATES } from "./accessibility-public-states";
import {
  DESKTOP,
  isExcepted,
  NOT_PAGES,
  PHONE,
  type SweepGroup,
  THEMES,
  type Theme,
  WCAG_AA,
} from "./accessibility-states";
import { accessibilityFindings, describeFinding, expect, test, watchForErrors } from "./support";
import { LOCALHOST } from "./virtual-authenticator";

/**
 * axe against WCAG 2.2 AA, every impact, on every page of the client, the back office and the public site and the
 * states that matter on them (tests/e2e/accessibility-states.ts), at desktop and phone width, in both themes, as
 * the role that sees each. Each role signs in once. A finding passes only when the exceptions' list names it.
 */
const GROUPS: SweepGroup[] = [
  { role: "a visitor", start: () => startVisitor(), states: VISITOR_STATES },
  { role: "the demo client", start: startDemoClient, states: DEMO_CLIENT_STATES },
  { role: "a new client", onLocalhost: true, start: startNewClient, states: NEW_CLIENT_STATES },
  { role: "a client with two-factor sign-in", start: startTwoFactorClient, states: TWO_FACTOR_CLIENT_STATES },
  { role: "an owner", start: startOwner, states: OWNER_STATES },
  { role: "an operator", start: startOperator, states: OPERATOR_STATES },
];

// axe is injected as an inline script, which the CSP rightly refuses. A step that cannot act fails in seconds,
// not at the end of the group's long timeout.
test.use({ bypassCSP: true, actionTimeout: 15_000 });

/** The theme as a person chooses it: the switch's POST, whose cookie the server renders every page with. */
async function chooseTheme(page: Page, theme: Theme) {
  const answer = await page.request.post("/theme", { form: { theme } });
  expect(answer.ok()).toBe(true);
}

test("every route file is either swept or named as no page", () => {
  const routes = readdirSync(join(process.cwd(), "app", "routes")).sort();
  const swept = new Set(GROUPS.flatMap((group) => group.states.map((state) => state.route)));
  const accounted = routes.filter((route) => swept.has(route) || route in NOT_PAGES);
  expect(routes.filter((route) => !accounted.includes(route))).toEqual([]);
  expect([...swept, ...Object.keys(NOT_PAGES)].filter((route) => !routes.includes(route))).toEqual([]);
});

for (const group of GROUPS) {
  test(`${group.role}: no WCAG 2.2 AA finding on any page or state, in both themes, at 1366 and 390 px`, async ({
    browser,
  }) => {
    // Four loads and axe runs for each state: a few seconds each.
    test.setTimeout(60_000 + group.states.length * 4 * 12_000);
    const context = await browser.newContext({
      bypassCSP: true,
      viewport: DESKTOP,
      ...(group.onLocalhost ? { baseURL: LOCALHOST } : {}),
    });
    const problems = watchForErrors(context);
    const page = await context.newPage();
    const data = await group.start(page);
    const found: string[] = [];
    for (const state of group.states) {
      await state.prepare?.(page, data);
      const path = typeof state.path === "string" ? state.path : state.path(data);
      for (const theme of THEMES) {
        await chooseTheme(page, theme);
        for (const viewport of [DESKTOP, PHONE]) {
          await test.step(`${state.name}, ${theme}, ${viewport.width} px`, async () => {
            await page.setViewportSize(viewport);
            await page.goto(path);
            await state.reach?.(page, data);
            const findings = await accessibilityFindings(page, { tags: WCAG_AA });
            found.push(
              ...findings
                .filter((finding) => !isExcepted(finding))
                .map((finding) => `${state.name} (${theme}, ${viewport.width} px): ${describeFinding(finding)}`),
            );
          });
        }
      }
    }
    await context.close();
    expect(found).toEqual([]);
    expect(problems).toEqual([]);
  });
}
