import type { BackOfficeRole } from "../../db/enums.ts";

/** The local demo's people: who `npm run dev` seeds and prints (passwords and keys are local demo data only). */
export const DEMO_ADMIN = {
  id: "00000000-0000-4000-8000-000000000001",
  email: "admin@example.com",
  password: "demo-admin-2026",
  firstName: "Avery",
  lastName: "Admin",
  /**
   * The demo admin's authenticator (base32, 20 bytes): admins must use two-factor sign-in, so the local demo
   * comes enrolled with a secret anyone may add to an app. Local data only, like the password.
   */
  totpSecret: "DEMOADMINTOTPSECRETNORTHWINDMKTS",
  /** An owner, who may do everything (docs/product.md, "Back-office roles"). */
  roles: ["owner"] as BackOfficeRole[],
  /** How `npm run dev` labels the login. */
  label: "admin",
};
/**
 * A second demo admin, with a key of its own: large ledger entries, large withdrawals and deposit-wallet changes
 * need the approval of an admin other than the one who proposed them.
 */
export const DEMO_SECOND_ADMIN = {
  id: "00000000-0000-4000-8000-000000000003",
  email: "admin2@example.com",
  password: "demo-admin2-2026",
  firstName: "Blair",
  lastName: "Admin",
  totpSecret: "DEMOSECONDADMINTOTPKEYNORTHWIND2",
  roles: ["owner"] as BackOfficeRole[],
  label: "admin2",
};
/**
 * A support admin: reads clients and their transactions and writes notes, but moves no money and opens no
 * documents, so that least privilege can be tried (docs/product.md, "Back-office roles").
 */
export const DEMO_SUPPORT_ADMIN = {
  id: "00000000-0000-4000-8000-000000000005",
  email: "support@example.com",
  password: "demo-support-2026",
  firstName: "Sam",
  lastName: "Support",
  totpSecret: "DEMOSUPPORTADMINTOTPKEYNORTHWIND",
  roles: ["support"] as BackOfficeRole[],
  label: "support",
};
export const DEMO_ADMINS = [DEMO_ADMIN, DEMO_SECOND_ADMIN, DEMO_SUPPORT_ADMIN];

export const DEMO_CLIENT = {
  id: "00000000-0000-4000-8000-000000000002",
  email: "client@example.com",
  password: "demo-client-2026",
  firstName: "Casey",
  lastName: "Client",
};

/** A second client whose identity verification waits in the desk's review queue, with sample documents. */
export const DEMO_SECOND_CLIENT = {
  id: "00000000-0000-4000-8000-000000000004",
  email: "client2@example.com",
  password: "demo-client2-2026",
  firstName: "Dana",
  lastName: "Doe",
};

/**
 * A client whose requests fire each of the six monitoring rules once, so the compliance queue has one open alert of
 * each (scripts/seed-monitoring.ts).
 */
export const DEMO_MONITORED_CLIENT = {
  id: "00000000-0000-4000-8000-000000000006",
  email: "client3@example.com",
  password: "demo-client3-2026",
  firstName: "Morgan",
  lastName: "Monitored",
};
