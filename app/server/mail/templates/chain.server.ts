import { z } from "zod";
import { compose } from "../compose.server";
import { mailTemplate } from "./template.server";

/**
 * To the desk: something on chain that a person must look at. A recorded payout the watcher refused (it pays
 * another address or amount, failed, or never appeared), or a payment already in the ledger whose block a
 * reorganisation took out (the money was not taken back).
 */
export const chainIncident = mailTemplate(
  z.object({
    kind: z.enum(["payout_refused", "credit_reorganised_out"]),
    client: z.string().trim().min(1).max(320),
    txid: z.string().trim().min(1).max(80),
    reason: z.string().trim().max(500),
    /** Where the desk sees it: the client's page, or the chain payments page. */
    page: z.string().trim().startsWith("/").max(200),
  }),
  (d, env) => {
    const facts: Array<[string, string]> = [
      ["Client", d.client],
      ["Transaction", d.txid],
      ["Reason", d.reason],
      ["Where", d.page],
    ];
    return d.kind === "payout_refused"
      ? compose(env, `Payout not accepted for ${d.client}`, {
          paragraphs: [
            "The transaction recorded as a withdrawal's payout was not accepted by the chain check.",
            "Check what was sent, and record the transaction that paid the withdrawal from the client's page.",
          ],
          facts,
        })
      : compose(env, `A credited payment left the chain: ${d.client}`, {
          paragraphs: [
            "A payment already in the ledger is no longer in the chain's block it was credited from. The money was not taken back.",
            "Check the transaction on chain, and look at it on the chain payments page.",
          ],
          facts,
        });
  },
);
