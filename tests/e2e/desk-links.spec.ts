import { DEMO_ADMIN, expect, registerClient, signIn, submitDepositRequest, test, watchForErrors } from "./support";

// The desk's long lists link to clients with plain anchors and one click handler per list: a click must still be a
// client-side navigation (the document is not loaded again), and Back returns to the desk.
test("the desk's client links open the client page without reloading the document", async ({ browser }) => {
  const clientContext = await browser.newContext();
  const client = await clientContext.newPage();
  const clientName = `Lane${Date.now() % 100000}`;
  await registerClient(client, clientName);
  await submitDepositRequest(client, "75");
  await expect(client.getByText("Deposit request submitted successfully")).toBeVisible();
  await clientContext.close();

  const adminContext = await browser.newContext();
  const errors = watchForErrors(adminContext);
  const admin = await adminContext.newPage();
  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);

  // User Management, found by name.
  await admin.getByLabel("Search clients by name or email").fill(clientName);
  await admin.getByRole("button", { name: "Search" }).click();
  await expect(admin).toHaveURL(new RegExp(`q=${clientName}`));
  await admin.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  await admin
    .getByRole("table")
    .getByRole("link", { name: `${clientName} Tester` })
    .click();
  await expect(admin.getByRole("heading", { name: `${clientName} Tester` })).toBeVisible();
  await expect(admin).toHaveURL(/\/user\/[\w-]+$/);
  expect(await admin.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);

  // The waiting list, when the client is among those who waited longest; its link to every pending request always.
  await admin.goBack();
  await expect(admin.getByRole("heading", { name: "Admin Panel" })).toBeVisible();
  await admin.goto("/admin");
  await admin.evaluate(() => {
    (window as unknown as { sameDocument: boolean }).sameDocument = true;
  });
  const waiting = admin.getByRole("group");
  const first = waiting.getByRole("listitem").first().getByRole("link");
  const name = (await first.textContent()) ?? "";
  await first.click();
  await expect(admin.getByRole("heading", { name })).toBeVisible();
  expect(await admin.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument)).toBe(true);
  await admin.goBack();
  await waiting.getByRole("link", { name: "All pending transactions" }).click();
  await expect(admin).toHaveURL(/\/admin\/transactions\?status=pending$/);

  await adminContext.close();
  expect(errors).toEqual([]);
});
