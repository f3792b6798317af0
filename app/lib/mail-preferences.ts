/**
 * Which mails a client may turn off (docs/product.md, "Mail preferences"), by category, and the mails that always
 * go. A mail template not named in a category is never held back: security notices, the links a person asked for
 * and legal notices (the verification deadline) always go, and the desk's and the team's mails are not a client's.
 * Migration 0025's trigger maps the same templates to the same categories; a test holds the two together.
 */
import type { MailCategory } from "../../db/enums";

export interface MailCategoryInfo {
  category: MailCategory;
  label: string;
  hint: string;
  templates: readonly string[];
}

export const MAIL_CATEGORY_LIST: readonly MailCategoryInfo[] = [
  {
    category: "requests",
    label: "My requests",
    hint: "A withdrawal request received, and each deposit, stock deposit or withdrawal approved or rejected.",
    templates: ["withdrawal_receipt", "request_decided"],
  },
  {
    category: "entries",
    label: "Entries posted to my account",
    hint: "Deposits, profits, losses, fees and other entries the desk posts.",
    templates: ["entry_posted"],
  },
  {
    category: "verification",
    label: "Identity verification results",
    hint: "Your verification approved, not accepted, or more information needed.",
    templates: ["verification_decided"],
  },
  {
    category: "orders",
    label: "My orders",
    hint: "Each order you place filled, and each order you cancel.",
    templates: ["order_filled"],
  },
];

/** The client mails that cannot be turned off, as the preferences card lists them. */
export const ALWAYS_SENT_MAILS = [
  "Security notices: a new sign-in, a password, two-factor, passkey or sign-in provider change",
  "Account mails: the welcome mail, and the links you ask for (password reset, e-mail confirmation)",
  "The cancel link of a withdrawal to an address you were never paid to",
  "Every step of a request to restore access to your account, with its cancel link",
  "Legal notices: identity verification reminders and the restriction of an unverified account",
] as const;

export const MAIL_PREFERENCE_MESSAGES = {
  saved: "Mail preferences saved",
} as const;
