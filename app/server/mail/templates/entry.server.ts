import { z } from "zod";
import { formatUsd } from "~/lib/format";
import { typeInSentence, typeLabel } from "~/lib/labels";
import { isCredit } from "~/lib/ledger";
import { transactionReference } from "~/lib/reference";
import { TRANSACTION_TYPES } from "../../../../db/enums";
import type { AppEnv } from "../../env.server";
import { compose, type Fact, greeting, referenceFact, utcMinute } from "../compose.server";
import { mailTemplate } from "./template.server";

/**
 * The client's mail about money the desk posted to their account (docs/product.md, "Mail"): an admin's ledger
 * entry, direct or by an approved proposal. What was posted, the amount, the reference and the reason the admin
 * gave, so that no balance moves without the client hearing why.
 */
export const entryPostedData = z.object({
  /** The client's first name; set by the enqueuing statement from the profile. */
  name: z.string().trim().max(200),
  entryType: z.enum(TRANSACTION_TYPES),
  amount: z.number().positive().finite(),
  tradingPair: z.string().trim().min(1).max(20).optional(),
  stock: z.string().trim().min(1).max(20).optional(),
  /** The admin's reason (the entry's memo), when one was given. */
  memo: z.string().trim().min(1).max(500).optional(),
  /** When it was posted (ms since the epoch), shown in UTC. */
  postedAt: z.number().int().positive(),
  /** The entry, shown as its reference; set by the enqueuing statement (the row is inserted by the same batch). */
  transactionId: z.number().int().positive(),
});
type EntryPostedData = z.infer<typeof entryPostedData>;

function renderEntryPosted(d: EntryPostedData, env: AppEnv) {
  const label = typeLabel(d.entryType);
  const amount = formatUsd(d.amount);
  const detail: Fact[] = d.tradingPair ? [["Trading pair", d.tradingPair]] : d.stock ? [["Stock", d.stock]] : [];
  return compose(env, `${label} of ${amount} posted to your account`, {
    paragraphs: [
      greeting(d.name),
      `Our desk posted a ${typeInSentence(d.entryType)} of ${amount} ${isCredit(d.entryType) ? "to" : "from"} your account. It shows in your History under its reference.`,
    ],
    facts: [
      ...referenceFact(transactionReference(d.transactionId)),
      ["Type", label],
      ["Amount", amount],
      ...detail,
      ...(d.memo ? ([["Reason", d.memo]] as Fact[]) : []),
      ["Posted", utcMinute(d.postedAt)],
    ],
    footnote: `Questions about this entry? Contact ${env.SUPPORT_EMAIL} and quote its reference.`,
  });
}

/** To the client: the desk posted a ledger entry to their account. */
export const entryPosted = mailTemplate(entryPostedData, renderEntryPosted);
