import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { withdrawalReviewText } from "~/lib/content";
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
  /<h3[^>]*>Reviewed withdrawals<\/h3><p[^>]*>([^<]*)<\/p>/.exec(html)?.[1] ?? "(no 'Reviewed withdrawals' point)";

describe("the landing page's claim about withdrawals", () => {
  it("names the firm's threshold: two approvals at or above it, one below", async () => {
    expect(appEnv.FOUR_EYES_THRESHOLD).toBe(10000);
    expect(securityPoint(await landingWith("10000"))).toBe(
      "Withdrawals of $10,000 or more are approved by two members of our desk before they are paid out; every other withdrawal is reviewed by one.",
    );
    expect(securityPoint(await landingWith("2500"))).toBe(
      "Withdrawals of $2,500 or more are approved by two members of our desk before they are paid out; every other withdrawal is reviewed by one.",
    );
  });

  it("says every withdrawal gets two approvals when the threshold is 0", async () => {
    expect(securityPoint(await landingWith("0"))).toBe(
      "Every withdrawal is approved by two members of our desk before it is paid out.",
    );
  });

  it("words the same text for any threshold without a one-review clause at 0", () => {
    expect(withdrawalReviewText(0)).not.toContain("reviewed by one");
    expect(withdrawalReviewText(1)).toContain("Withdrawals of $1 or more");
    expect(withdrawalReviewText(1_250_000)).toContain("Withdrawals of $1,250,000 or more");
  });
});
