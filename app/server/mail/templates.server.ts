import type { z } from "zod";
import type { AppEnv } from "../env.server";
import type { RenderedEmail } from "./compose.server";
import { accessRecovery } from "./templates/access-recovery.server";
import { emailConfirmation, passwordReset, welcome } from "./templates/account.server";
import { chainIncident } from "./templates/chain.server";
import { depositWalletChanged, proposalDecided, proposalWaiting } from "./templates/desk.server";
import { entryPosted } from "./templates/entry.server";
import { orderFilled } from "./templates/orders.server";
import {
  depositRequest,
  requestDecided,
  withdrawalNewAddress,
  withdrawalReceipt,
  withdrawalRequest,
} from "./templates/requests.server";
import { securityNotice } from "./templates/security-notice.server";
import { adminInvitation, teamChange } from "./templates/team.server";
import type { MailTemplate } from "./templates/template.server";
import { verificationReminder, verificationRestricted } from "./templates/verification-deadline.server";
import { verificationDecided } from "./templates/verification-review.server";

export { escapeHtml } from "./compose.server";
export { SECURITY_EVENTS, type SecurityEvent } from "./templates/security-notice.server";

/**
 * Every notice the product sends, by the name the outbox stores: each a `{ schema, render }` (./templates/). The
 * data is validated at enqueue time and stored; rendering happens at delivery and in the local mailbox, from the
 * stored data.
 */
const TEMPLATES = {
  welcome,
  password_reset: passwordReset,
  email_confirmation: emailConfirmation,
  deposit_request: depositRequest,
  withdrawal_request: withdrawalRequest,
  withdrawal_receipt: withdrawalReceipt,
  withdrawal_new_address: withdrawalNewAddress,
  deposit_wallet_changed: depositWalletChanged,
  request_decided: requestDecided,
  proposal_waiting: proposalWaiting,
  proposal_decided: proposalDecided,
  security_notice: securityNotice,
  entry_posted: entryPosted,
  verification_reminder: verificationReminder,
  verification_restricted: verificationRestricted,
  verification_decided: verificationDecided,
  admin_invitation: adminInvitation,
  team_change: teamChange,
  access_recovery: accessRecovery,
  chain_incident: chainIncident,
  order_filled: orderFilled,
} as const satisfies Record<string, MailTemplate>;

export type EmailTemplate = keyof typeof TEMPLATES;

/** Each template's data schema, by name: what enqueuing code validates against. */
export const emailTemplates = Object.fromEntries(
  Object.entries(TEMPLATES).map(([name, template]) => [name, template.schema]),
) as { [T in EmailTemplate]: (typeof TEMPLATES)[T]["schema"] };

export type EmailData<T extends EmailTemplate> = z.infer<(typeof TEMPLATES)[T]["schema"]>;

export function renderEmail<T extends EmailTemplate>(template: T, data: EmailData<T>, env: AppEnv): RenderedEmail {
  return (TEMPLATES[template] as MailTemplate).render(data, env);
}

/** Renders a stored outbox row; the data is re-validated, so a malformed row fails loudly, not silently. */
export function renderStoredEmail(template: string, payload: unknown, env: AppEnv): RenderedEmail {
  if (!Object.hasOwn(TEMPLATES, template)) throw new Error(`Unknown e-mail template: ${template}`);
  const { schema, render } = TEMPLATES[template as EmailTemplate] as MailTemplate;
  return render(schema.parse(payload), env);
}
