import { z } from "zod";
import { formatUsd } from "~/lib/format";
import { REFERENCE_PATTERN, transactionReference } from "~/lib/reference";
import { cancelLink } from "../../ledger/cancel-link.server";
import { compose, type Fact, greeting, referenceFact, utcMinute } from "../compose.server";
import { address, amount, link, mailTemplate, personName, transactionId, walletType } from "./template.server";

/** The mails about a client's requests: the desk's notices of new ones, the client's receipts and decisions. */

const reference = (id: number | undefined) => referenceFact(id ? transactionReference(id) : undefined);
const clientFacts = (name: string, clientEmail: string | undefined): Fact[] => [
  ["Client", name || "User"],
  ...(clientEmail ? ([["Client e-mail", clientEmail]] as Fact[]) : []),
];

/** How every mail about a withdrawal states it: how much, in which currency, to which address. */
const withdrawalFacts = (amountUsd: number, currency: string, payTo: string): Fact[] => [
  ["Amount", formatUsd(amountUsd)],
  ["Cryptocurrency", currency],
  ["Pay to address", payTo],
];

/** What the desk's notice of a new request says: who asked, how much, through which wallet. */
const deskNotice = z.object({
  name: personName,
  clientEmail: z.email().optional(),
  amount,
  walletType,
  walletAddress: address,
  transactionId: transactionId.optional(),
});

/** To the desk: a deposit or stock deposit request awaits review. */
export const depositRequest = mailTemplate(
  deskNotice.extend({ stock: z.string().trim().min(1).max(20).optional() }),
  (d, env) =>
    compose(env, d.stock ? `New stock deposit request: ${d.stock}` : "New deposit request", {
      paragraphs: [
        `${d.name || "User"} submitted a ${d.stock ? "stock deposit" : "deposit"} request that awaits review.`,
      ],
      facts: [
        ...reference(d.transactionId),
        ...clientFacts(d.name, d.clientEmail),
        ["Amount", formatUsd(d.amount)],
        ...(d.stock ? ([["Stock", d.stock]] as Fact[]) : []),
        ["Wallet type", d.walletType],
        ["Wallet address", d.walletAddress],
      ],
    }),
);

/** To the desk: a withdrawal request awaits review. */
export const withdrawalRequest = mailTemplate(deskNotice, (d, env) =>
  compose(env, "New withdrawal request", {
    paragraphs: [`${d.name || "User"} requested a withdrawal that awaits review.`],
    facts: [
      ...reference(d.transactionId),
      ...clientFacts(d.name, d.clientEmail),
      ...withdrawalFacts(d.amount, d.walletType, d.walletAddress),
    ],
  }),
);

/** To the client: their withdrawal request was received (the row is inserted by the same batch). */
export const withdrawalReceipt = mailTemplate(
  z.object({ name: personName, amount, walletType, walletAddress: address, transactionId: transactionId.optional() }),
  (d, env) =>
    compose(env, "We received your withdrawal request", {
      paragraphs: [
        greeting(d.name),
        "We received your withdrawal request. It is pending review; the amount is reserved from your available balance until it is decided.",
      ],
      facts: [...reference(d.transactionId), ...withdrawalFacts(d.amount, d.walletType, d.walletAddress)],
      footnote: `If you did not make this request, contact ${env.SUPPORT_EMAIL} immediately.`,
    }),
);

/**
 * To the client: a withdrawal to an address they were never paid to. The cancel link's token is made when the mail
 * renders, from these ids and the secret, so the outbox never stores a live token.
 */
export const withdrawalNewAddress = mailTemplate(
  z.object({
    name: personName,
    amount,
    currency: walletType,
    address,
    transactionId,
    clientId: z.string().min(1).max(64),
    /** The site's address the link points to (SITE_URL, or the address the request came to). */
    origin: link,
  }),
  (d, env) =>
    compose(env, "A withdrawal to a new address was requested", {
      paragraphs: [
        greeting(d.name),
        "A withdrawal was requested from your account to an address we have never paid you to before. If this was you, there is nothing to do: it will be reviewed as usual.",
        "If it was not you, cancel it with the button below while it is still pending, then change your password and contact us.",
      ],
      facts: [...reference(d.transactionId), ...withdrawalFacts(d.amount, d.currency, d.address)],
      action: {
        label: "Cancel this withdrawal",
        url: cancelLink(new URL(d.origin).origin, env.SESSION_SECRET, d.transactionId, d.clientId),
      },
      footnote: `The link works once, and only while the request is pending. Questions? Contact ${env.SUPPORT_EMAIL}.`,
    }),
);

/** To the client: their request was approved or rejected. */
export const requestDecided = mailTemplate(
  z.object({
    name: personName,
    decision: z.enum(["approved", "rejected"]),
    /** The request's kind as clients read it: "Deposit", "Withdrawal". */
    requestType: z.string().trim().min(1).max(40),
    amount,
    /** When it was requested (ms since the epoch), shown in UTC. */
    requestedAt: z.number().int().positive(),
    /** The admin's reason for a rejection, when they gave one. */
    reason: z.string().trim().max(500).optional(),
    /** A rejected request that reserved money while it waited (a withdrawal): the reserve is available again. */
    reserveReleased: z.boolean().optional(),
    /** The request's reference ("TX-7Q2M9K"); optional so notices stored before it still render. */
    reference: z.string().regex(REFERENCE_PATTERN).optional(),
    /** The request's id: the client's notification of the decision links to it (not shown in the mail). */
    transactionId: transactionId.optional(),
  }),
  (d, env) => {
    const kind = d.requestType.toLowerCase();
    return compose(env, `Your ${kind} request was ${d.decision}`, {
      paragraphs: [
        greeting(d.name),
        d.decision === "approved"
          ? `Your ${kind} request was approved.`
          : `Your ${kind} request was rejected.${d.reserveReleased ? " The reserved amount is available again." : ""}`,
      ],
      facts: [
        ...referenceFact(d.reference),
        ["Type", d.requestType],
        ["Amount", formatUsd(d.amount)],
        ["Requested", utcMinute(d.requestedAt)],
        ...(d.decision === "rejected" && d.reason ? ([["Reason", d.reason]] as Fact[]) : []),
      ],
      footnote: `Questions about this decision? Contact ${env.SUPPORT_EMAIL}.`,
    });
  },
);
