/** The data model's enumerations, free of imports so browser code can share them with the schema. */
export const ROLES = ["user", "admin"] as const;
/**
 * What an admin may do in the back office comes from the roles they hold (one or more): the permission table in
 * app/lib/permissions.ts says what each allows.
 */
export const BACK_OFFICE_ROLES = ["support", "operator", "approver", "compliance", "owner"] as const;
export type BackOfficeRole = (typeof BACK_OFFICE_ROLES)[number];
/**
 * The flags a back-office note may set on or clear from a client (their labels: app/lib/client-flags.ts). The
 * migration's checks (0018) spell the same list.
 */
export const CLIENT_FLAGS = ["watch", "vip", "do_not_contact"] as const;
export type ClientFlag = (typeof CLIENT_FLAGS)[number];
/**
 * What one owner proposes on the team page and another owner decides: giving an admin the owner role, and
 * resetting an admin's two-factor sign-in (they enrol again at their next sign-in).
 */
export const TEAM_PROPOSAL_KINDS = ["grant_owner", "reset_two_factor"] as const;
export type TeamProposalKind = (typeof TEAM_PROPOSAL_KINDS)[number];
export const TEAM_PROPOSAL_STATUSES = ["pending", "approved", "rejected"] as const;
export const PROFILE_STATUSES = ["active", "suspended"] as const;
/** The fixed wallet address written on the ledger entries an admin posts, which tells them from clients' requests. */
export const ADMIN_ENTRY_WALLET = "admin-ledger-entry";
export const TRANSACTION_TYPES = ["deposit", "stock_deposit", "fee_deposit", "withdraw", "profit", "loss"] as const;
/** A client's request starts pending; an admin approves or rejects it, or its owner cancels it while pending. */
export const TRANSACTION_STATUSES = ["pending", "approved", "rejected", "cancelled"] as const;
/**
 * What a first admin may propose for a second admin's approval (four eyes): a ledger entry, the approval of a
 * client's request (a deposit, stock deposit or withdrawal), a deposit-wallet change.
 */
export const PROPOSAL_KINDS = ["ledger_entry", "request_approval", "wallet_change", "position_close"] as const;
export const PROPOSAL_STATUSES = ["pending", "approved", "rejected", "expired"] as const;
export const AUTH_TOKEN_PURPOSES = ["reset", "confirm"] as const;
export const OAUTH_PROVIDERS = ["google", "github"] as const;
/**
 * How a session's second factor was last proved: an authenticator's code or a passkey counts for step-up (a
 * recovery code is a way back in, not a fresh proof of the phone).
 */
export const SECOND_FACTOR_METHODS = ["totp", "recovery_code", "passkey"] as const;
/**
 * What a passkey ceremony's challenge is for: adding a passkey to the signed-in account, signing in with one (no
 * account known yet), or proving the second factor of a known account (the sign-in's second step, step-up).
 */
export const WEBAUTHN_PURPOSES = ["register", "sign_in", "second_factor"] as const;
export type WebauthnPurpose = (typeof WEBAUTHN_PURPOSES)[number];
export const PASSKEY_DEVICE_TYPES = ["singleDevice", "multiDevice"] as const;
export const SIGN_IN_RESULTS = ["success", "wrong_password", "wrong_code", "locked"] as const;
export const OUTBOX_STATUSES = ["pending", "sent", "captured", "failed"] as const;

/**
 * A client's identity-verification case: filled in (draft), sent (submitted), then decided: approved (the client is
 * Verified), rejected (with the reviewer's reason; the client may send it again) or more information needed.
 */
export const VERIFICATION_STATUSES = ["draft", "submitted", "approved", "rejected", "more_info_needed"] as const;
/** The identity document a client shows: a passport has no back; a national identity card and a driving licence do. */
export const IDENTITY_DOCUMENT_TYPES = ["passport", "national_id", "driving_licence"] as const;
/** The files of a case: the identity document's front and back, and a recent proof of address. */
export const DOCUMENT_KINDS = ["identity_front", "identity_back", "proof_of_address"] as const;
/**
 * A client's request to get back into an account whose every second factor is lost: being filled in (open), sent
 * (submitted), approved once (first_approved, waiting for a second admin), then approved (the second factors
 * removed), refused, or cancelled by the client.
 */
export const ACCESS_RECOVERY_STATUSES = [
  "open",
  "submitted",
  "first_approved",
  "approved",
  "refused",
  "cancelled",
] as const;
/** The statuses of a request still in progress: one such request per client. */
export const LIVE_ACCESS_RECOVERY_STATUSES = ["open", "submitted", "first_approved"] as const;
/** The files of such a request: a new photo of the identity document, and a selfie holding it. */
export const ACCESS_RECOVERY_FILE_KINDS = ["identity_photo", "selfie"] as const;
/** What the Worker accepts, decided from a file's first bytes. */
export const DOCUMENT_CONTENT_TYPES = ["image/jpeg", "image/png", "application/pdf"] as const;

export type Role = (typeof ROLES)[number];
export type VerificationStatus = (typeof VERIFICATION_STATUSES)[number];
export type IdentityDocumentType = (typeof IDENTITY_DOCUMENT_TYPES)[number];
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export type DocumentContentType = (typeof DOCUMENT_CONTENT_TYPES)[number];
export type AccessRecoveryStatus = (typeof ACCESS_RECOVERY_STATUSES)[number];
export type AccessRecoveryFileKind = (typeof ACCESS_RECOVERY_FILE_KINDS)[number];
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type ProposalKind = (typeof PROPOSAL_KINDS)[number];
export type ProposalStatus = (typeof PROPOSAL_STATUSES)[number];
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];
export type SecondFactorMethod = (typeof SECOND_FACTOR_METHODS)[number];
export type SignInResult = (typeof SIGN_IN_RESULTS)[number];

/**
 * Transaction monitoring (docs/product.md, "Transaction monitoring"): the patterns an alert is written for (their
 * thresholds, windows and words: app/lib/monitoring/rules.ts), and what a compliance officer decided about one.
 * Migration 0022's checks spell the same lists.
 */
export const MONITORING_RULES = [
  "large_transaction",
  "structuring",
  "velocity",
  "rapid_in_out",
  "new_destination_after_security_change",
  "dormant_account",
] as const;
export type MonitoringRule = (typeof MONITORING_RULES)[number];
export const ALERT_STATUSES = ["open", "dismissed", "escalated", "reported"] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

/**
 * The notification centre (docs/product.md, "Notifications"): what a notification can be about (the name of the
 * client mail whose insert writes it), and the mails a client may turn off, by category (the rest, security and
 * legal notices, always go). Migration 0025's checks and trigger spell the same lists.
 */
export const NOTIFICATION_KINDS = [
  "request_decided",
  "entry_posted",
  "verification_decided",
  "verification_restricted",
  "security_notice",
  "order_filled",
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const MAIL_CATEGORIES = ["requests", "entries", "verification", "orders"] as const;
export type MailCategory = (typeof MAIL_CATEGORIES)[number];

/** The chains the deposit watcher reads, and what it credits from each (USDT is the ERC-20 token on Ethereum). */
/**
 * Positions (docs/product.md, "Orders and positions"): a buy order opens one, which stays open until sold (closed,
 * oldest first) or is cancelled within the cancel window of its placing. The ledger rows a close writes carry this
 * wallet address, which tells them from an admin's entries and a client's requests.
 */
export const POSITION_STATUSES = ["open", "closed", "cancelled"] as const;
export type PositionStatus = (typeof POSITION_STATUSES)[number];
export const POSITION_RESULT_WALLET = "position-close";

export const CHAIN_NETWORKS = ["bitcoin", "ethereum"] as const;
export type ChainNetworkName = (typeof CHAIN_NETWORKS)[number];
export const CHAIN_ASSETS = ["BTC", "ETH", "USDT_ERC20"] as const;
export type ChainAsset = (typeof CHAIN_ASSETS)[number];
/** A payment seen on chain: moving through its confirmations, then credited, held for review, or dropped. */
export const CHAIN_PAYMENT_STATUSES = ["seen", "credited", "held", "dropped"] as const;
export type ChainPaymentStatus = (typeof CHAIN_PAYMENT_STATUSES)[number];
/**
 * A withdrawal's payout on chain, recorded by an admin with its transaction id: waiting for the watcher's check,
 * matched (it pays the withdrawal's address its amount, counting confirmations), confirmed, or not accepted.
 */
export const CHAIN_PAYOUT_STATUSES = ["recorded", "matched", "confirmed", "mismatch"] as const;
export type ChainPayoutStatus = (typeof CHAIN_PAYOUT_STATUSES)[number];
