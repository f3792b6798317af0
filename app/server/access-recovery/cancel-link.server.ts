/**
 * The cancel link of an access-recovery request, in every mail about it while it is in progress: whoever reads the
 * account's mailbox can stop a request they did not send, without signing in (app/server/signed-link.server.ts).
 */
import { signedIdLink } from "../signed-link.server";

export const accessRecoveryCancelToken = signedIdLink("cancel-access-recovery/v1");

export function accessRecoveryCancelLink(origin: string, secret: string, requestId: number, ownerId: string): string {
  return `${origin}/login/recovery/cancel?token=${accessRecoveryCancelToken.sign(secret, requestId, ownerId)}`;
}
