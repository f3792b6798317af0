import type { Page } from "@playwright/test";
import { DEMO_ADMIN, expect, registerClient, signIn, submitDepositRequest, test, watchForErrors } from "./support";

test("an admin sees a client's deposit appear live, and the client sees the approval live", async ({ browser }) => {
  const clientContext = await browser.newContext();
  const adminContext = await browser.newContext();
  const errors = [...watchForErrors(clientContext), ...watchForErrors(adminContext)];
  const client = await clientContext.newPage();
  const admin = await adminContext.newPage();

  const firstName = `Live${Date.now() % 100000}`;
  await registerClient(client, firstName);
  const accountId = (await client.getByText(/^[0-9a-f-]{36}$/).textContent()) ?? "";

  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await expect(admin).toHaveURL(/\/admin$/);
  expect(accountId).toMatch(/^[0-9a-f-]{36}$/);
  await admin.goto(`/user/${accountId}`);
  await expect(admin.getByText("No transactions found")).toBeVisible();

  await submitDepositRequest(client, "777.77");
  await expect(client).toHaveURL(/\/dashboard$/);

  // No reload on the admin's page: the row arrives over the client's feed.
  const row = admin.locator("tr").filter({ hasText: "$777.77" });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("pending");

  await expect(client.getByTestId("balance-available")).toHaveText("$0.00");
  await admin.getByRole("button", { name: "Approve deposit of $777.77" }).click();
  await expect(row).toContainText("approved");

  // No reload on the client's dashboard either.
  await expect(client.getByTestId("balance-available")).toHaveText("$777.77");
  await expect(admin.locator("tr").filter({ hasText: "$777.77" })).toHaveCount(1);

  // The client's History is live as well: a request decided while it is open changes status in place.
  await submitDepositRequest(client, "123.45");
  await expect(client).toHaveURL(/\/dashboard$/);
  await client.goto("/transactions");
  const historyRow = client.locator("tr").filter({ hasText: "$123.45" });
  await expect(historyRow).toContainText("Pending");
  await admin.getByRole("button", { name: "Reject deposit of $123.45" }).click();
  await admin.getByRole("dialog").getByRole("button", { name: "Reject", exact: true }).click();
  await expect(historyRow).toContainText("Declined");

  await clientContext.close();
  await adminContext.close();
  expect(errors).toEqual([]);
});

/**
 * The desk's data on a slow connection (a second before its answer starts, a couple more to arrive), the live
 * updates' socket as fast as ever: an update then lands while the page is still reading a reload's data, as it does
 * now and then on a busy machine.
 */
async function slowDeskData(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditionsByRule", {
    offline: false,
    matchedNetworkConditions: [
      { urlPattern: "*://*:*/admin.data*", latency: 300, downloadThroughput: 1_000, uploadThroughput: 10_000 },
    ],
  });
}

/** The next reload of the desk's data, once its answer has begun to arrive. */
const deskReloadArriving = (page: Page) =>
  page.waitForResponse((response) => response.request().method() === "GET" && response.url().includes("/admin.data"));

test("the desk takes a live update that arrives while it is still reading a reload, after a delete or another update, without an error", async ({
  browser,
  page: admin,
}) => {
  test.setTimeout(120_000);
  const tag = `Slow${Date.now() % 1_000_000}`;
  const [ownDelete = "", firstUpdate = "", secondUpdate = "", thirdUpdate = ""] = ["a", "b", "c", "d"].map(
    (letter) => `${tag}${letter}`,
  );
  const signUp = await browser.newContext();
  for (const name of [ownDelete, firstUpdate, secondUpdate, thirdUpdate]) {
    await signUp.clearCookies();
    await registerClient(await signUp.newPage(), name);
  }
  await signUp.close();

  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await admin.goto(`/admin?q=${tag}`);
  // A second tab of the same admin deletes clients while the first one reloads: each delete is a live update.
  const otherContext = await browser.newContext({ storageState: await admin.context().storageState() });
  const errors = watchForErrors(otherContext);
  const other = await otherContext.newPage();
  await other.goto(`/admin?q=${tag}`);
  for (const page of [admin, other]) page.on("dialog", (confirm) => void confirm.accept());
  const deleteButton = (page: Page, name: string) => page.getByRole("button", { name: `Delete ${name} Tester's data` });
  const deleteOnOtherTab = async (name: string) => {
    await deleteButton(other, name).click();
    await expect(other.getByText("User data deleted successfully.")).toBeVisible();
  };
  for (const name of [ownDelete, firstUpdate, secondUpdate, thirdUpdate]) {
    await expect(deleteButton(admin, name)).toBeVisible();
  }
  await slowDeskData(admin);

  // The desk reloads after its own delete; the other tab's delete is announced while that reload's data arrives.
  const afterDelete = deskReloadArriving(admin);
  await deleteButton(admin, ownDelete).click();
  await afterDelete;
  await deleteOnOtherTab(firstUpdate);
  await expect(admin.getByText("User data deleted successfully.")).toBeVisible();
  await expect(deleteButton(admin, ownDelete)).toHaveCount(0);
  await expect(deleteButton(admin, firstUpdate)).toHaveCount(0, { timeout: 20_000 });

  // The desk reloads after a live update; the next one is announced while that reload's data arrives.
  const afterUpdate = deskReloadArriving(admin);
  await deleteOnOtherTab(secondUpdate);
  await afterUpdate;
  await deleteOnOtherTab(thirdUpdate);
  await expect(deleteButton(admin, secondUpdate)).toHaveCount(0, { timeout: 20_000 });
  await expect(deleteButton(admin, thirdUpdate)).toHaveCount(0, { timeout: 20_000 });

  await otherContext.close();
  expect(errors).toEqual([]);
});

test("leaving the desk while it reads a live update's refresh shows no error", async ({ browser, page: admin }) => {
  test.setTimeout(120_000);
  const name = `Leave${Date.now() % 1_000_000}`;
  const signUp = await browser.newContext();
  await registerClient(await signUp.newPage(), name);
  await signUp.close();

  await signIn(admin, DEMO_ADMIN.email, DEMO_ADMIN.password);
  await admin.goto(`/admin?q=${name}`);
  const otherContext = await browser.newContext({ storageState: await admin.context().storageState() });
  const errors = watchForErrors(otherContext);
  const other = await otherContext.newPage();
  await other.goto(`/admin?q=${name}`);
  other.on("dialog", (confirm) => void confirm.accept());
  await expect(admin.getByRole("button", { name: `Delete ${name} Tester's data` })).toBeVisible();
  await slowDeskData(admin);

  // The other tab's delete makes the desk refresh; the admin opens the audit log while that refresh's data arrives,
  // which cancels it.
  const refresh = deskReloadArriving(admin);
  await other.getByRole("button", { name: `Delete ${name} Tester's data` }).click();
  await expect(other.getByText("User data deleted successfully.")).toBeVisible();
  await refresh;
  await admin.getByRole("link", { name: "Audit Log" }).click();
  await expect(admin.getByRole("heading", { name: "Audit Log", level: 1 })).toBeVisible();
  await expect(admin).toHaveURL(/\/admin\/audit$/);

  await otherContext.close();
  expect(errors).toEqual([]);
});
