/**
 * How the audit log reads to a person (docs/product.md, "Audit log"): its stored JSON details as labelled facts
 * ('Amount: $1,000.00', 'Expires: Nov 25, 2026, 1:05 PM UTC', 'Client: Jane Doe (jane@example.com)') and its
 * target by name ('TX-7Q2M9K'). The stored row never changes; this is only how it is shown, on /admin/audit and in
 * its CSV.
 */
import type { MonitoringRule } from "../../db/enums";
import { formatCents, formatDateTimeUtc } from "./format";
import { typeLabel } from "./labels";
import { TRANSACTION_TYPES, type TransactionType } from "./ledger";
import { MONITORING_RULE_NAMES } from "./monitoring/rules";
import { transactionReference } from "./reference";
import { DOCUMENT_KIND_LABELS } from "./verification";

/** What the reader finds beside a row to name what it is about. */
export interface AuditNames {
  /** The client (or account) the row is about: its `client` detail, or its `user:` target. */
  person?: { name: string | null; email: string } | null;
  /** The deposit wallet's type, for a `wallet` detail or a `wallet:` target. */
  walletType?: string | null;
}

export interface AuditFact {
  label: string;
  value: string;
}

export interface AuditRecord {
  action: string;
  target: string | null;
  detail: Record<string, unknown> | null;
}

const LABELS: Record<string, string> = {
  client: "Client",
  type: "Type",
  amountCents: "Amount",
  tradingPair: "Pair",
  stock: "Stock",
  balanceAfterCents: "Balance after",
  balanceCents: "Balance",
  reason: "Reason",
  // A ledger entry's reason, stored on the transaction as its memo: the desk typed it as "Reason".
  memo: "Reason",
  via: "Via",
  transactions: "Transactions",
  email: "E-mail",
  kind: "Kind",
  proposedBy: "Proposed by",
  transaction: "Transaction",
  wallet: "Wallet",
  walletType: "Wallet",
  proposal: "Proposal",
  expiresAt: "Expires",
  template: "Template",
  to: "Recipient",
  attempts: "Attempts",
  lastError: "Last error",
  failedAt: "Failed",
  passwordChanged: "Password set",
  case: "Verification case",
  document: "Document",
  sha256: "SHA-256",
  submittedAt: "Sent",
  rule: "Rule",
  note: "Note",
  reference: "Report reference",
};

const KINDS: Record<string, string> = {
  ledger_entry: "Ledger entry",
  request_approval: "Request approval",
  wallet_change: "Wallet change",
};

const VIAS: Record<string, string> = { dashboard: "Dashboard", link: "E-mail link" };

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** A key of no known kind, by its words: "someKeyName" reads "Some key name". */
const labelOf = (key: string) => LABELS[key] ?? capitalised(key.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase());

const personText = (person: AuditNames["person"]) =>
  person ? (person.name ? `${person.name} (${person.email})` : person.email) : null;

function factValue(key: string, value: unknown, names: AuditNames): string {
  if (typeof value === "boolean") return value ? "Yes" : "No";
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  const text = String(value);
  const number = Number(value);
  if (key === "client") return personText(names.person) ?? text;
  if (key === "type")
    return TRANSACTION_TYPES.includes(text as TransactionType) ? typeLabel(text as TransactionType) : text;
  if (key === "transaction" && Number.isInteger(number)) return transactionReference(number);
  if (key === "wallet") return names.walletType ?? `#${text}`;
  if (key === "proposal" || key === "case") return `#${text}`;
  if (key === "document") return DOCUMENT_KIND_LABELS[text as keyof typeof DOCUMENT_KIND_LABELS] ?? text;
  if (key === "kind") return KINDS[text] ?? text;
  if (key === "rule") return MONITORING_RULE_NAMES[text as MonitoringRule] ?? text;
  if (key === "via") return VIAS[text] ?? text;
  if (key === "passwordChanged") return number ? "Yes" : "No";
  // By what the key says it holds: cents are money, a time "…At" is a moment.
  if (key.endsWith("Cents") && Number.isFinite(number)) return formatCents(number);
  if (key.endsWith("At") && Number.isFinite(number)) return formatDateTimeUtc(number);
  return text;
}

/**
 * A row's details as facts, in the order they were stored: the actor's e-mail (`by`, the By column's)
 * and empty values left out, a before and an after made one fact ('Status: Pending → Approved', 'Address: old →
 * new').
 */
export function auditFacts(record: AuditRecord, names: AuditNames = {}): AuditFact[] {
  const detail = record.detail ?? {};
  const present = (key: string) => detail[key] !== null && detail[key] !== undefined && detail[key] !== "";
  const addresses = record.action.startsWith("wallet.") || detail.kind === "wallet_change";
  const change = (value: unknown) => (addresses ? String(value) : capitalised(String(value)));
  const facts: AuditFact[] = [];
  for (const [key, value] of Object.entries(detail)) {
    if (key === "by" || !present(key)) continue;
    if ((key === "before" || key === "after") && present("before") && present("after")) {
      if (key === "before") {
        facts.push({ label: addresses ? "Address" : "Status", value: `${change(value)} → ${change(detail.after)}` });
      }
      continue;
    }
    facts.push({ label: labelOf(key), value: factValue(key, value, names) });
  }
  return facts;
}

export const factsText = (facts: readonly AuditFact[]) => facts.map((f) => `${f.label}: ${f.value}`).join(" · ");

/** What a row acted on, by name: 'TX-7Q2M9K', 'Jane Doe (jane@example.com)', 'BTC wallet', 'Notice #12'. */
export function auditTarget(target: string | null, names: AuditNames = {}): string {
  const colon = target?.indexOf(":") ?? -1;
  if (!target || colon < 0) return target ?? "";
  const kind = target.slice(0, colon);
  const id = target.slice(colon + 1);
  if (kind === "transaction" && /^\d+$/.test(id)) return transactionReference(Number(id));
  if (kind === "user") return personText(names.person) ?? id;
  if (kind === "wallet") return names.walletType ? `${names.walletType} wallet` : `Wallet #${id}`;
  if (kind === "email") return `Notice #${id}`;
  if (kind === "proposal") return `Proposal #${id}`;
  if (kind === "verification") return `Verification case #${id}`;
  if (kind === "document") return `Document ${id}`;
  if (kind === "alert") return `Alert #${id}`;
  return target;
}
