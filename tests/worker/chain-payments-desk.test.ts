import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CHAIN_WAITING, REORGANISED_OUT } from "~/lib/chain/deposit-texts";
import { PERMISSION_MESSAGES } from "~/lib/permissions";
import { transactionReference } from "~/lib/reference";
import { paymentsOf, verifiedPayee } from "../support/chain-watch";
import { createUser, getPage, sessionCookieFor } from "../support/fixtures";
import { errorShown, linkTexts, REFUSED } from "../support/places";
import { tableRows } from "../support/tables";

/**
 * The desk's view of payments seen on chain (docs/product.md, "Deposits on chain"): what waits and since when, what
 * is set aside, and what left the chain after it reached the ledger, for those who decide deposits and compliance.
 */
async function pageAs(role: "operator" | "compliance" | "owner" | "support" | "approver") {
  const admin = await createUser({ role: "admin", roles: [role] });
  return getPage("/admin/chain-payments", await sessionCookieFor(admin.id));
}

async function deskPage() {
  const response = await pageAs("operator");
  expect(response.status).toBe(200);
  return response.text();
}

/** The row of a section's table naming the transaction, as its cells' text. */
const rowIn = (html: string, section: string, txid: string) =>
  tableRows(html, `chain-${section}`).find((cells) => cells.some((cell) => cell.includes(txid)));

/** The instant a section's row shows in its last column (its `<time>`). */
function sinceIn(html: string, section: string, txid: string): string | null {
  const table = new RegExp(`<table[^>]*data-testid="chain-${section}"[\\s\\S]*?</table>`).exec(html)?.[0] ?? "";
  const row = [...table.matchAll(/<tr[\s>][\s\S]*?<\/tr>/g)].find(([markup]) => markup.includes(txid))?.[0] ?? "";
  return /datetime="([^"]+)"/i.exec(row)?.[1] ?? null;
}

describe("/admin/chain-payments", () => {
  it("shows a confirmed payment waiting for a fresh rate, with its reason and since when, until it is credited", async () => {
    const { world, btc } = await verifiedPayee();
    await world.chain.rate("BTC", 70_000, Math.floor((Date.now() - 10 * 60_000) / 1000));
    const paid = await world.chain.pay({ address: btc, amount: "0.01" });
    await world.chain.mine(2);
    await world.watch();
    const html = await deskPage();
    expect(rowIn(html, "waiting", paid.txid)).toEqual([
      "Pat Tester",
      "0.01 BTC",
      `${paid.txid}:${paid.outputIndex} to ${btc}`,
      "2",
      "Not credited",
      CHAIN_WAITING.noRate("BTC"),
      expect.stringContaining("UTC"),
    ]);
    const since = sinceIn(html, "waiting", paid.txid);
    // A block later it still waits since the same moment, with one more confirmation.
    await world.chain.mine(1);
    await world.watch();
    const later = await deskPage();
    expect(rowIn(later, "waiting", paid.txid)?.[3]).toBe("3");
    expect(sinceIn(later, "waiting", paid.txid)).toBe(since);
    await world.chain.rate("BTC", 60_000);
    await world.watch();
    expect(rowIn(await deskPage(), "waiting", paid.txid)).toBeUndefined();
  });

  it("shows a payment set aside with its reason", async () => {
    const { world, btc } = await verifiedPayee();
    const paid = await world.chain.pay({ address: btc, amount: "0.00000001" });
    await world.chain.mine(2);
    await world.watch();
    const html = await deskPage();
    expect(rowIn(html, "setAside", paid.txid)).toMatchObject({ 1: "0.00000001 BTC", 5: CHAIN_WAITING.dust });
    expect(rowIn(html, "waiting", paid.txid)).toBeUndefined();
  });

  it("shows a credited payment whose block a reorganisation took out, with its ledger row, and mails the desk once", async () => {
    const { world, client, btc } = await verifiedPayee();
    const operator = await createUser({ role: "admin", roles: ["operator"] });
    const approver = await createUser({ role: "admin", roles: ["approver"] });
    const paid = await world.chain.pay({ address: btc, amount: "0.002" });
    await world.chain.mine(2);
    await world.watch();
    const [credited] = await paymentsOf(client.id);
    expect(credited).toMatchObject({ status: "credited" });
    expect(rowIn(await deskPage(), "reorganisedOut", paid.txid)).toBeUndefined();
    await world.chain.reorg(2, { drop: true });
    await world.watch();
    const html = await deskPage();
    expect(rowIn(html, "reorganisedOut", paid.txid)).toMatchObject({
      0: "Pat Tester",
      1: "0.002 BTC",
      4: `Credited ${transactionReference(credited?.transaction_id ?? 0)}`,
      5: REORGANISED_OUT,
    });
    // The money stays credited: the desk decides what to do.
    expect(await paymentsOf(client.id)).toMatchObject([{ status: "credited" }]);
    await world.watch();
    const told = async (email: string) =>
      (
        await env.DB.prepare(
          "SELECT json_extract(payload, '$.kind') AS kind, json_extract(payload, '$.txid') AS txid FROM email_outbox WHERE template = 'chain_incident' AND to_address = ?",
        )
          .bind(email)
          .all()
      ).results;
    expect(await told(operator.email)).toEqual([{ kind: "credit_reorganised_out", txid: paid.txid }]);
    // Not the approvers' business: they do not read the chain payments page.
    expect(await told(approver.email)).toEqual([]);
  });

  it("is read by operators, compliance and owners; other roles are refused, and the desk links it for those who may", async () => {
    for (const role of ["operator", "compliance", "owner"] as const) expect((await pageAs(role)).status).toBe(200);
    for (const role of ["support", "approver"] as const) {
      const response = await pageAs(role);
      expect(response.status).toBe(403);
      expect(errorShown(await response.text())).toEqual({ title: REFUSED, text: PERMISSION_MESSAGES.forbidden });
    }
    const deskOf = async (role: "operator" | "support") => {
      const admin = await createUser({ role: "admin", roles: [role] });
      return (await getPage("/admin", await sessionCookieFor(admin.id))).text();
    };
    expect(linkTexts(await deskOf("operator"))).toContain("Chain payments");
    expect(linkTexts(await deskOf("support"))).not.toContain("Chain payments");
  });
});
