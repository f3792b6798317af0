/**
 * The permission table (app/lib/permissions.ts) as the server's commands ask it. Routes refuse an act first
 * (`requirePermission`, and the acts runner for every form); the commands check again, so no other caller can skip it (defence in depth).
 */
import { may, PERMISSION_MESSAGES, type Permission } from "~/lib/permissions";
import type { BackOfficeRole } from "../../db/enums";
import type { Actor } from "./audit.server";

/** A signed-in admin as a command needs them: who (for the audit row) and which roles they hold. */
export type BackOfficeActor = Required<Actor> & { roles: readonly BackOfficeRole[] };

export type Forbidden = { ok: false; error: string; status: 403 };

/** The refusal of an act the admin's roles do not allow: one message, 403, and nothing is written. */
export const FORBIDDEN: Forbidden = { ok: false, error: PERMISSION_MESSAGES.forbidden, status: 403 };

/** Whether the admin may do the act: `{ ok: true }`, or the 403 refusal a command answers as it is. */
export function assertMay(
  admin: { roles: readonly BackOfficeRole[] },
  permission: Permission,
): { ok: true } | Forbidden {
  return may(admin.roles, permission) ? { ok: true } : FORBIDDEN;
}
