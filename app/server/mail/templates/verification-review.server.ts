import { z } from "zod";
import { DOCUMENT_KIND_LABELS } from "~/lib/verification";
import { DOCUMENT_KINDS } from "../../../../db/enums";
import type { AppEnv } from "../../env.server";
import { compose, type Fact, greeting } from "../compose.server";
import { mailTemplate } from "./template.server";

/**
 * The client's mail about the review of their identity verification (docs/product.md, "Identity verification"):
 * approved, rejected with the reviewer's reason, or more information needed about one document, with the link to
 * the verification page where they act on it.
 */
const verificationDecidedData = z.object({
  /** The client's first name; set by the enqueuing statement from the profile. */
  name: z.string().trim().max(200),
  decision: z.enum(["approved", "rejected", "more_info_needed"]),
  /** The reviewer's reason (a rejection) or message (more information needed). */
  note: z.string().trim().min(1).max(500).optional(),
  /** More information needed: the document to send again. */
  documentKind: z.enum(DOCUMENT_KINDS).optional(),
  /** The client's verification page on this site. */
  url: z.url({ protocol: /^https?$/ }),
});
type VerificationDecidedData = z.infer<typeof verificationDecidedData>;

const SUBJECTS = {
  approved: "Your identity is verified",
  rejected: "Your identity verification was not accepted",
  more_info_needed: "We need more information to verify your identity",
} as const;

function renderVerificationDecided(d: VerificationDecidedData, env: AppEnv) {
  const facts: Fact[] = [
    ...(d.documentKind ? ([["Document", DOCUMENT_KIND_LABELS[d.documentKind]]] as Fact[]) : []),
    ...(d.note ? ([[d.decision === "rejected" ? "Reason" : "What we need", d.note]] as Fact[]) : []),
  ];
  const paragraphs = {
    approved:
      "We checked your documents and your identity is verified. Withdrawals are open to you within your account's limits.",
    rejected:
      "We checked your documents and could not accept them. The reason is below; correct it and send your verification again.",
    more_info_needed:
      "We checked your documents and need one more thing before we can verify your identity. Send it from your verification page.",
  };
  return compose(env, SUBJECTS[d.decision], {
    paragraphs: [greeting(d.name), paragraphs[d.decision]],
    facts,
    action: d.decision === "approved" ? undefined : { label: "Open my verification", url: d.url },
    footnote: `Questions about this decision? Contact ${env.SUPPORT_EMAIL}.`,
  });
}

/** To the client: their identity verification was approved, rejected or needs more information. */
export const verificationDecided = mailTemplate(verificationDecidedData, renderVerificationDecided);
