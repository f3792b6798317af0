/** The data model's enumerations, free of imports so browser code can share them with the schema. */
export const ROLES = ["user", "admin"] as const;
export const PROFILE_STATUSES = ["active", "suspended"] as const;
export const TRANSACTION_TYPES = ["deposit", "stock_deposit", "fee_deposit", "withdraw", "profit", "loss"] as const;
export const TRANSACTION_STATUSES = ["pending", "approved", "rejected"] as const;
export const AUTH_TOKEN_PURPOSES = ["reset", "confirm"] as const;
export const OAUTH_PROVIDERS = ["google", "github"] as const;
export const SIGN_IN_RESULTS = ["success", "wrong_password", "wrong_code", "locked"] as const;
export const OUTBOX_STATUSES = ["pending", "sent", "captured", "failed"] as const;

export type Role = (typeof ROLES)[number];
export type ProfileStatus = (typeof PROFILE_STATUSES)[number];
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];
export type OAuthProvider = (typeof OAUTH_PROVIDERS)[number];
export type SignInResult = (typeof SIGN_IN_RESULTS)[number];
