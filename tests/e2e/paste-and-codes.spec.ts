import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { clientWithTwoFactor } from "./back-office-people";
import { CODE_PROMPT, expect, test } from "./support";

/**
 * WCAG 3.3.8 (accessible authentication): nobody has to remember or retype a secret. Passwords and codes can be
 * pasted and filled by a password manager or the phone (`autocomplete`), and no field refuses a paste.
 */
test.use({ permissions: ["clipboard-read", "clipboard-write"] });

/** Copies `text` and pastes it into `field` with the keyboard, as a person does from a password manager. */
async function pasteInto(page: Page, field: Locator, text: string) {
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await field.focus();
  await page.keyboard.press("ControlOrMeta+V");
  await expect(field).toHaveValue(text);
}

test("sign-in's password and the second step's code take a paste, and say what a password manager may fill", async ({
  page,
}) => {
  const client = await clientWithTwoFactor();
  await page.goto("/login");
  await expect(page.getByLabel("Email")).toHaveAttribute("autocomplete", /email|username/);
  await expect(page.getByLabel("Password")).toHaveAttribute("autocomplete", "current-password");
  await pasteInto(page, page.getByLabel("Email"), client.email);
  await pasteInto(page, page.getByLabel("Password"), client.password);
  await page.getByLabel("Password").press("Enter");
  await expect(page).toHaveURL(/\/login\/two-factor$/);

  const code = page.getByLabel(CODE_PROMPT);
  await expect(code).toHaveAttribute("autocomplete", "one-time-code");
  await pasteInto(page, code, "123456");
});

test("registration's passwords take a paste and ask for a new password", async ({ page }) => {
  await page.goto("/register");
  for (const label of ["Password", "Confirm Password"]) {
    const field = page.getByLabel(label, { exact: true });
    await expect(field).toHaveAttribute("autocomplete", "new-password");
    await pasteInto(page, field, "a-Long-generated-passphrase-42");
  }
});

/** Each `<input …/>` and `<Field …/>` of the app's components and pages, as written. */
function controlsInSource(): Array<{ file: string; element: string }> {
  const root = join(process.cwd(), "app");
  const files = readdirSync(root, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".tsx"));
  return files.flatMap((file) => {
    const source = readFileSync(join(root, file), "utf8");
    return [...source.matchAll(/<(input|Field)\b/g)].map((match) => {
      const end = source.indexOf("/>", match.index);
      return { file, element: source.slice(match.index, end) };
    });
  });
}

test("every code field asks for a one-time code, and no field of the app refuses a paste", () => {
  const controls = controlsInSource();
  const codeFields = controls.filter(({ element }) => /name=(\{STEP_UP_FIELD\}|"code")/.test(element));
  expect(codeFields.length).toBeGreaterThan(3);
  expect(
    codeFields.filter(({ element }) => !element.includes('autoComplete="one-time-code"')).map(({ file }) => file),
  ).toEqual([]);
  expect(controls.filter(({ element }) => /onPaste|onCopy|onCut/.test(element)).map(({ file }) => file)).toEqual([]);
});
