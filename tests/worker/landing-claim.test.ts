import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { moneyReviewText } from "~/lib/content";
import worker from "../../workers/app";
import { appEnv, ORIGIN } from "../support/fixtures";

/** The landing page served by the whole Worker with a copy of the bindings that sets the four-eyes threshold. */
async function landingWith(threshold: string): Promise<string> {
  const ctx = createExecutionContext();
  const response = await worker.fetch(
    new Request(`${ORIGIN}/`, { headers: { "CF-Connecting-IP": "203.0.113.61" } }),
    { ...env, FOUR_EYES_THRESHOLD: threshold } as typeof env,
    ctx,
  );
  await waitOnExecutionContext(ctx);
  expect(response.status).toBe(200);
  return response.text();
}

const securityPoint = (html: string) =>
  /<h3[^>]*>Reviewed deposits and withdrawals<\/h3><p[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ??
  "(no 'Reviewed deposits and withdrawals' point)";

describe("the landing page's claim about deposits and withdrawals", () => {
  it("names the firm's threshold: two approvals at or above it, one below", async () => {
    expect(appEnv.FOUR_EYES_THRESHOLD).toBe(10000);
    expect(securityPoint(await landingWith("10000"))).toBe(
      "Deposits and withdrawals of $10,000 or more are approved by two members of our desk before they move your balance; smaller ones are reviewed by one.",
    );
    expect(securityPoint(await landingWith("2500"))).toBe(
      "Deposits and withdrawals of $2,500 or more are approved by two members of our desk before they move your balance; smaller ones are reviewed by one.",
    );
  });

  it("says every deposit and withdrawal gets two approvals when the threshold is 0", async () => {
    expect(securityPoint(await landingWith("0"))).toBe(
      "Every deposit and withdrawal is approved by two members of our desk before it moves your balance.",
    );
  });

  it("words the same text for any threshold without a one-review clause at 0", () => {
    expect(moneyReviewText(0)).not.toContain("reviewed by one");
    expect(moneyReviewText(1)).toContain("Deposits and withdrawals of $1 or more");
    expect(moneyReviewText(1_250_000)).toContain("Deposits and withdrawals of $1,250,000 or more");
  });
});
