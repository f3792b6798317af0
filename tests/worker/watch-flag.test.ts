import { describe, expect, it } from "vitest";
import { createUser, getPage, insertTransaction, postForm, sessionCookieFor } from "../support/fixtures";

const badges = (html: string) => html.split('data-testid="watch-badge"').length - 1;

async function approver() {
  const admin = await createUser({ role: "admin", roles: ["approver", "support"] });
  return { ...admin, cookie: await sessionCookieFor(admin.id) };
}

/** A client with two pending withdrawals, a pending deposit and a paid withdrawal, waiting since `since`. */
async function clientWithRequests(firstName: string, since: number) {
  const client = await createUser({ firstName });
  const withdrawal = { transactionType: "withdraw" as const, createdBy: client.id, withdrawalWalletAddress: "0xabc" };
  await insertTransaction(client.id, { ...withdrawal, amountCents: 7_100, createdAt: since });
  await insertTransaction(client.id, { ...withdrawal, amountCents: 7_200, createdAt: since + 1 });
  await insertTransaction(client.id, { ...withdrawal, amountCents: 7_300, status: "approved", createdAt: since + 2 });
  await insertTransaction(client.id, { amountCents: 7_400, createdBy: client.id, createdAt: since + 3 });
  return client;
}

const pages = (client: { id: string; email: string }) =>
  [
    [`/user/${client.id}`, 2],
    [`/admin/transactions?client=${encodeURIComponent(client.email)}`, 2],
    // The desk lists the client once, with their oldest waiting withdrawal.
    ["/admin", 1],
  ] as const;

describe("the Watch flag beside a pending withdrawal", () => {
  it("shows on each pending withdrawal of a flagged client, where it is decided", async () => {
    const admin = await approver();
    const watched = await clientWithRequests("Watched", 1_000);
    const note = await postForm(
      `/user/${watched.id}`,
      { intent: "note", body: "Odd sign-ins", flagsShown: "", flag_watch: "on" },
      { cookie: admin.cookie },
    );
    expect(note.status).toBeLessThan(400);

    for (const [path, expected] of pages(watched)) {
      const html = await (await getPage(path, admin.cookie)).text();
      expect(badges(html), path).toBe(expected);
      expect(html, path).toContain('<span class="sr-only">Client flagged: </span>Watch');
    }
  });

  it("does not show for a client without the flag", async () => {
    const admin = await approver();
    const plain = await clientWithRequests("Plain", 500);
    for (const [path] of pages(plain)) {
      const html = await (await getPage(path, admin.cookie)).text();
      expect(html, path).toContain(plain.id);
      const ownPart = path === "/admin" ? html.slice(html.indexOf(`/user/${plain.id}`)).split("</li>")[0] : html;
      expect(badges(ownPart ?? ""), path).toBe(0);
    }
  });
});
