import { describe, expect, it } from "vitest";
import { appEnv, createUser, getPage, sessionCookieFor } from "../support/fixtures";
import { elementsWith, heading, linkTexts, readText } from "../support/places";

const titleOf = (html: string) => /<title>([^<]*)<\/title>/.exec(html)?.[1] ?? "";

describe("what the pages claim", () => {
  it("makes no claim the product does not keep: two approvals only at the four-eyes threshold, no contact form", async () => {
    const landing = await (await getPage("/")).text();
    expect(landing).not.toContain("Each withdrawal request is reviewed");
    expect(landing).toContain("Deposits and withdrawals of $10,000 or more are approved by two members of our desk");
    const contact = await (await getPage("/contact-us")).text();
    expect(contact).not.toContain("form below");
    // The page's own content: the header's theme switch is a form on every page.
    const main = contact.slice(contact.indexOf("<main"), contact.indexOf("</main>"));
    expect(main).toContain("Support addresses");
    expect(main).not.toMatch(/<form[^>]*method="post"/i);
  });

  it("shows an unknown stock without a price change or a Buy Now that leads nowhere", async () => {
    const response = await getPage("/stocks/NOPE");
    const html = await response.text();
    expect(heading(html)).toContain("NOPE");
    expect(linkTexts(html)).not.toContain("Buy Now");
    expect(readText(elementsWith(html, "id", "main")[0] ?? "")).not.toContain("0.00%");
    const known = await (await getPage("/stocks/AAPL")).text();
    expect(linkTexts(known)).toContain("Buy Now");
  });

  it("names the brand in every page's title", async () => {
    const client = await createUser();
    const admin = await createUser({ role: "admin" });
    const asClient = await sessionCookieFor(client.id);
    const asAdmin = await sessionCookieFor(admin.id);
    const pages: Array<[string, string | undefined]> = [
      ["/", undefined],
      ["/login", undefined],
      ["/forgot-password", undefined],
      ["/stocks", undefined],
      ["/stocks/AAPL", undefined],
      ["/dashboard", asClient],
      ["/deposit", asClient],
      ["/withdraw", asClient],
      ["/account", asClient],
      ["/trading-room", asClient],
      ["/stocks/AAPL/deposit", asClient],
      ["/admin", asAdmin],
      ["/admin/audit", asAdmin],
      ["/admin/mail", asAdmin],
      [`/user/${client.id}`, asAdmin],
    ];
    for (const [path, cookie] of pages) {
      const title = titleOf(await (await getPage(path, cookie)).text());
      expect([path, title.endsWith(` | ${appEnv.BRAND_NAME}`)]).toEqual([path, true]);
    }
  });
});
