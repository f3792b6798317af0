import { executeStatements, sqlValue } from "../../scripts/lib/local-d1";
import { clientWithRequests } from "./back-office-people";
import { e2eDatabase, whileBusy } from "./database";
import { DEMO_ADMIN, expect, seriousAccessibilityProblems, signIn, test, unique } from "./support";
import { withUnusedCode } from "./totp";

/** The demo admin as an owner, whatever the seed gave them (the team page is for owners). */
async function demoAdminIsOwner() {
  await whileBusy(() =>
    executeStatements(
      [
        `INSERT INTO admin_roles (user_id, role) SELECT id, 'owner' FROM users
         WHERE email = ${sqlValue(DEMO_ADMIN.email)} ON CONFLICT DO NOTHING`,
      ],
      e2eDatabase,
    ),
  );
}

test.describe("the team page", () => {
  test.use({ bypassCSP: true });

  test("an owner invites a support admin, who joins, enrols two-factor and reads a client without Approve buttons", async ({
    page,
    browser,
  }, testInfo) => {
    await demoAdminIsOwner();
    const email = `e2e-team-${unique()}@example.com`;
    await signIn(page, DEMO_ADMIN.email, DEMO_ADMIN.password);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" }).first().click();
    await expect(page.getByRole("heading", { name: "Team", level: 1 })).toBeVisible();
    await page.getByLabel("Email").fill(email);
    await page.getByRole("checkbox", { name: /^Support/ }).check();
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText(`Invitation sent to ${email}.`)).toBeVisible();
    await expect(
      page.getByRole("listitem").filter({ hasText: email }).getByText("Invited, not yet accepted"),
    ).toBeVisible();
    // The form is blank again: a second invitation in a row carries only the roles ticked for it.
    await expect(page.getByLabel("Email")).toHaveValue("");
    await expect(page.getByRole("checkbox", { name: /^Support/ })).not.toBeChecked();
    const second = `e2e-team-${unique()}@example.com`;
    await page.getByLabel("Email").fill(second);
    await page.getByRole("checkbox", { name: /^Compliance/ }).check();
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText(`Invitation sent to ${second}.`)).toBeVisible();
    const secondCard = page.getByRole("listitem").filter({ hasText: second });
    await expect(secondCard.getByText("Compliance", { exact: true })).toBeVisible();
    await expect(secondCard.getByText(/Support/)).toHaveCount(0);
    expect(await seriousAccessibilityProblems(page)).toEqual([]);
    for (const [width, height] of [
      [1366, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.screenshot({ path: testInfo.outputPath(`team-${width}.png`), fullPage: true });
    }

    const invitee = await (await browser.newContext({ baseURL: testInfo.project.use.baseURL })).newPage();
    await invitee.goto("/dev/mailbox");
    const mail = invitee
      .getByRole("listitem")
      .filter({ hasText: `To ${email}` })
      .filter({ hasText: "invited" });
    await mail.getByRole("link", { name: "Join the team" }).click();
    await expect(invitee).toHaveURL(/\/team\/invite\?token=/);
    await invitee.setViewportSize({ width: 390, height: 844 });
    await invitee.screenshot({ path: testInfo.outputPath("join-390.png"), fullPage: true });
    expect(await seriousAccessibilityProblems(invitee)).toEqual([]);
    await invitee.getByLabel("First name").fill("Sam");
    await invitee.getByLabel("Last name").fill("Support");
    await invitee.getByLabel("Password", { exact: true }).fill("support-pass-1");
    await invitee.getByLabel("Confirm Password").fill("support-pass-1");
    await invitee.getByRole("button", { name: "Join the team" }).click();
    await expect(invitee).toHaveURL(/\/account\/two-factor$/);
    await invitee.getByRole("button", { name: "Set up two-factor authentication" }).click();
    const secret = (await invitee.getByTestId("totp-secret").innerText()).trim();
    await invitee.getByLabel("Current Password").fill("support-pass-1");
    await withUnusedCode(secret, async (code) => {
      await invitee.getByLabel("Enter the 6-digit code from your authenticator app").fill(code);
      await invitee.getByRole("button", { name: "Turn on two-factor authentication" }).click();
      await expect(invitee.getByRole("list", { name: "Recovery codes" })).toBeVisible();
    });
    await invitee.getByRole("link", { name: "I have saved them: continue to the Admin Panel" }).click();
    await expect(invitee).toHaveURL(/\/admin$/);
    await expect(invitee.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
    // A support admin is not offered the team page, and reads a client's page without a money act on it.
    await expect(invitee.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Team" })).toHaveCount(0);
    await invitee.goto(`/user/${await clientWithRequests()}`);
    await expect(invitee.getByRole("heading", { name: "Rowan Roles" })).toBeVisible();
    await expect(invitee.getByRole("cell", { name: "$50.00" })).toBeVisible();
    await expect(invitee.getByRole("button", { name: /^(Approve|Reject)/ })).toHaveCount(0);

    // The owner sees them joined: active, with two-factor sign-in on.
    await page.reload();
    const card = page.getByRole("listitem").filter({ hasText: email });
    await expect(card.getByText("Active")).toBeVisible();
    await expect(card.getByText("On", { exact: true })).toBeVisible();

    // An invitation sent by mistake is revoked from its card.
    const mistaken = `e2e-mistake-${unique()}@example.com`;
    await page.getByLabel("Email").fill(mistaken);
    await page.getByRole("checkbox", { name: /^Operator/ }).check();
    await page.getByRole("button", { name: "Send invitation" }).click();
    await expect(page.getByText(`Invitation sent to ${mistaken}.`)).toBeVisible();
    await page.getByRole("button", { name: `Revoke the invitation to ${mistaken}` }).click();
    await expect(page.getByText(`Invitation to ${mistaken} revoked: its link no longer works.`)).toBeVisible();
    await expect(page.getByRole("listitem").filter({ hasText: mistaken })).toHaveCount(0);
  });
});
