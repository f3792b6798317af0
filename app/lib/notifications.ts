/**
 * How a notification reads and where it leads (docs/product.md, "Notifications"): its title, one line of detail
 * and the link to its subject, from its kind, subject and the data of the mail that wrote it. Browser-safe; the
 * data is read defensively, as rows written by older mails may lack a field.
 */
import type { NotificationKind } from "../../db/enums";
import { formatUsd } from "./format";
import { TRANSACTION_TYPE_LABELS } from "./labels";
import { type OrderNotice, orderNoticeDetail, orderNoticeTitle } from "./order-notices";
import { transactionReference } from "./reference";

export interface NotificationView {
  title: string;
  detail: string;
  href: string;
}

type Data = Record<string, unknown>;

const text = (value: unknown) => (typeof value === "string" ? value : "");
const amount = (value: unknown) => (typeof value === "number" && Number.isFinite(value) ? formatUsd(value) : "");
const joined = (...parts: string[]) => parts.filter(Boolean).join(" · ");

const SECURITY_TITLES: Record<string, string> = {
  new_browser: "New sign-in to your account",
  password_changed: "Your password was changed",
  two_factor_on: "Two-factor authentication turned on",
  two_factor_off: "Two-factor authentication turned off",
  recovery_code_used: "A recovery code was used",
  provider_linked: "A sign-in provider was linked",
  provider_unlinked: "A sign-in provider was unlinked",
  passkey_added: "A passkey was added",
  passkey_renamed: "A passkey was renamed",
  passkey_removed: "A passkey was removed",
  passkey_copied: "Your passkey may have been copied",
};

/** Where each security event is looked at: the card of /account it changed. */
function securityHref(event: string): string {
  if (event === "new_browser") return "/account#sessions-heading";
  if (event.startsWith("passkey_")) return "/account#passkeys-heading";
  if (event.startsWith("provider_")) return "/account#providers-title";
  if (event === "password_changed") return "/account";
  return "/account#two-factor-card-title";
}

/** A transaction subject's link: the client's History filtered to that one reference. */
function transactionHref(subject: string): string {
  const id = Number(subject.slice("transaction:".length));
  return Number.isSafeInteger(id) && id > 0 && id < 2 ** 30
    ? `/transactions?reference=${transactionReference(id)}`
    : "/transactions";
}

const VERIFICATION_TITLES: Record<string, string> = {
  approved: "Your identity is verified",
  rejected: "Your identity verification was not accepted",
  more_info_needed: "We need more information to verify your identity",
};

export function describeNotification(kind: NotificationKind, subject: string, data: Data): NotificationView {
  switch (kind) {
    case "request_decided": {
      const decision = data.decision === "approved" ? "approved" : "rejected";
      return {
        title: `${text(data.requestType) || "Request"} request ${decision}`,
        detail: joined(amount(data.amount), text(data.reference), text(data.reason)),
        href: transactionHref(subject),
      };
    }
    case "entry_posted": {
      const type = text(data.entryType);
      const label = Object.hasOwn(TRANSACTION_TYPE_LABELS, type)
        ? TRANSACTION_TYPE_LABELS[type as keyof typeof TRANSACTION_TYPE_LABELS]
        : "An entry";
      return {
        title: `${label} posted to your account`,
        detail: joined(amount(data.amount), text(data.stock) || text(data.tradingPair), text(data.memo)),
        href: transactionHref(subject),
      };
    }
    case "verification_decided":
      return {
        title: VERIFICATION_TITLES[text(data.decision)] ?? "Your identity verification was reviewed",
        detail: text(data.note),
        href: "/account/verification",
      };
    case "verification_restricted":
      return {
        title: "Your account is restricted until your identity is verified",
        detail: "",
        href: "/account/verification",
      };
    case "order_filled": {
      const notice: OrderNotice = {
        order: data.order === "buy" || data.order === "cancel" || data.order === "close" ? data.order : "sell",
        symbol: text(data.symbol),
        serial: text(data.serial),
        sharesE4: Number(data.sharesE4) || 0,
        priceE4: Number(data.priceE4) || 0,
        cents: Number(data.cents) || 0,
        resultCents: typeof data.resultCents === "number" ? data.resultCents : null,
      };
      return { title: orderNoticeTitle(notice), detail: orderNoticeDetail(notice), href: "/portfolio" };
    }
    case "security_notice": {
      const event = text(data.event);
      return {
        title: SECURITY_TITLES[event] ?? "A security change to your account",
        detail: joined(text(data.browser), text(data.location)),
        href: securityHref(event),
      };
    }
  }
}
