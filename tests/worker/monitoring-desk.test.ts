import { describe, expect, it } from "vitest";
import { countRows, createUser, getPage, sessionCookieFor } from "../support/fixtures";
import { client, judge, request } from "../support/monitoring";
import { cardTitled, linkHref, linkTexts, testIdText } from "../support/places";

async function deskAs(roles: Array<"support" | "compliance" | "owner" | "operator" | "approver">) {
  const admin = await createUser({ role: "admin", roles });
  return (await getPage("/admin", await sessionCookieFor(admin.id))).text();
}

describe("the desk's open monitoring alerts", () => {
  it("counts the open alerts for compliance and owners, and links the count to the alert queue", async () => {
    const pat = await client();
    await judge(await request(pat.id, "deposit", 12_000_00, 0));
    await judge(await request(pat.id, "deposit", 13_000_00, 0));
    const open = await countRows("monitoring_alerts", "status = 'open'");
    expect(open).toBeGreaterThanOrEqual(2);

    for (const roles of [["compliance"], ["owner"]] as const) {
      const html = await deskAs([...roles]);
      expect(testIdText(html, "open-alerts")).toBe(String(open));
      expect(linkHref(html, "Open monitoring alerts")).toBe("/admin/alerts");
    }
  });

  it("is not shown to an admin who does not review alerts", async () => {
    const pat = await client();
    await judge(await request(pat.id, "deposit", 14_000_00, 0));
    for (const roles of [["support"], ["operator", "approver"]] as const) {
      const html = await deskAs([...roles]);
      expect(testIdText(html, "total-users")).not.toBeNull();
      expect(testIdText(html, "open-alerts")).toBeNull();
      expect(cardTitled(html, "Open monitoring alerts")).toBeNull();
      expect(linkTexts(html)).not.toContain("Open monitoring alerts");
    }
  });
});
