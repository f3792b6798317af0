/**
 * The flags a back-office note may set on or clear from a client (docs/product.md, "Back-office roles", "Client
 * notes"), with the words the back office shows. Browser-safe.
 */
import { CLIENT_FLAGS, type ClientFlag } from "../../db/enums";

export { CLIENT_FLAGS, type ClientFlag };

export const CLIENT_FLAG_LABELS: Record<ClientFlag, string> = {
  watch: "Watch",
  vip: "VIP",
  do_not_contact: "Do not contact",
};

export const isClientFlag = (value: unknown): value is ClientFlag =>
  typeof value === "string" && (CLIENT_FLAGS as readonly string[]).includes(value);

/** Flags as the database lists them (a comma list or a JSON array), known ones only, in the list's order. */
export function flagsOf(stored: string | readonly string[] | null | undefined): ClientFlag[] {
  const values =
    typeof stored === "string" ? (stored.startsWith("[") ? JSON.parse(stored) : stored.split(",")) : stored;
  return CLIENT_FLAGS.filter((flag) => (values ?? []).includes(flag));
}
