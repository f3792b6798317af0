import { z } from "zod";
import { compose, type Fact, utcMinute } from "../compose.server";
import { address, mailTemplate, walletType } from "./template.server";

/** The mails among admins: a deposit wallet changed, a proposal waits for a second admin, a proposal was decided. */

const ORDINALS = ["First", "Second", "Third"];

export const depositWalletChanged = mailTemplate(
  z.object({
    walletType,
    previousAddress: z.string().max(200),
    newAddress: address,
    changedBy: z.string().max(320),
    /** Set when the new value is an account's extended public key: its first addresses, derived by the Worker. */
    newKeyAddresses: z.array(address).min(1).max(3).optional(),
  }),
  (d, env) =>
    d.newKeyAddresses
      ? compose(env, `Deposit wallet changed: ${d.walletType}`, {
          paragraphs: [
            `The ${d.walletType} deposit wallet now holds an extended public key, changed by ${d.changedBy}. Each client is given deposit addresses of their own, derived from it.`,
            "Compare the first addresses below with your wallet software. If this change was not expected, check the audit log and restore the wallet at once.",
          ],
          facts: [
            ["Wallet type", d.walletType],
            ["Previous value", d.previousAddress || "(none)"],
            ["New extended public key", d.newAddress],
            ...d.newKeyAddresses.map((a, i): Fact => [`${ORDINALS[i] ?? "Next"} address`, a]),
            ["Changed by", d.changedBy],
          ],
        })
      : compose(env, `Deposit wallet changed: ${d.walletType}`, {
          paragraphs: [
            `The ${d.walletType} deposit address that clients pay into was changed by ${d.changedBy}.`,
            "If this change was not expected, check the audit log and restore the address at once.",
          ],
          facts: [
            ["Wallet type", d.walletType],
            ["Previous address", d.previousAddress || "(none)"],
            ["New address", d.newAddress],
            ["Changed by", d.changedBy],
          ],
        }),
);

/** What a proposal would do, as its card says it ("Deposit of $20,000.00 for Jane Doe"). */
const description = z.string().trim().min(1).max(700);
const reason = z.string().trim().max(500).optional();

/** To the other admins: a proposal waits for a second approval. */
export const proposalWaiting = mailTemplate(
  z.object({ description, proposedBy: z.string().max(320), reason, expiresAt: z.number().int().positive() }),
  (d, env) =>
    compose(env, "A proposal awaits your second approval", {
      paragraphs: [
        `${d.proposedBy} proposed a change that needs a second admin before it takes effect.`,
        "Approve or reject it from the Awaiting second approval card on the Admin Panel. It expires if nobody decides it in time.",
      ],
      facts: [
        ["Proposal", d.description],
        ["Proposed by", d.proposedBy],
        ...(d.reason ? ([["Reason", d.reason]] as Fact[]) : []),
        ["Expires", utcMinute(d.expiresAt)],
      ],
    }),
);

const DECIDED_SENTENCES = {
  approved: "Your proposal was approved by a second admin and has taken effect.",
  rejected: "Your proposal was rejected by a second admin. Nothing changed.",
  expired:
    "Your proposal expired before a second admin decided it. Nothing changed; propose it again if it is still needed.",
} as const;

/** To the proposer: their proposal was approved, rejected (with the reason) or expired. */
export const proposalDecided = mailTemplate(
  z.object({
    description,
    decision: z.enum(["approved", "rejected", "expired"]),
    decidedBy: z.string().max(320).optional(),
    reason,
  }),
  (d, env) =>
    compose(env, `Your proposal was ${d.decision}`, {
      paragraphs: [DECIDED_SENTENCES[d.decision]],
      facts: [
        ["Proposal", d.description],
        ...(d.decidedBy ? ([["Decided by", d.decidedBy]] as Fact[]) : []),
        ...(d.reason ? ([["Reason", d.reason]] as Fact[]) : []),
      ],
    }),
);
