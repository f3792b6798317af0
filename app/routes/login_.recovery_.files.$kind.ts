import { redirect } from "react-router";
import { requestOfBrowser, storeRecoveryFile } from "~/server/access-recovery/requests.server";
import { notFound } from "~/server/http.server";
import { redirectWithToast } from "~/server/toast.server";
import { uploadOf } from "~/server/verification/checked-upload.server";
import { ACCESS_RECOVERY_FILE_KINDS, type AccessRecoveryFileKind } from "../../db/enums";
import type { Route } from "./+types/login_.recovery_.files.$kind";

const PAGE = "/login/recovery";

/** The access-recovery page's photo slots post here; there is nothing to show. */
export async function loader() {
  return redirect(PAGE);
}

/**
 * One photo of the request this browser follows (its cookie, never an id), checked and stored as every upload is:
 * sent as the body with a JSON answer, or, without JavaScript, as the slot's multipart form, back to the page with
 * a toast.
 */
export async function action({ request, context, params }: Route.ActionArgs) {
  if (!ACCESS_RECOVERY_FILE_KINDS.includes(params.kind as AccessRecoveryFileKind)) notFound();
  const mine = await requestOfBrowser(context, request);
  if (!mine) return Response.json({ error: "Sign in with your password again to continue." }, { status: 401 });
  const upload = await uploadOf(request);
  const result = upload.ok
    ? await storeRecoveryFile(context, mine.id, params.kind as AccessRecoveryFileKind, upload.file)
    : upload;
  if (upload.multipart) {
    const toast = result.ok
      ? { type: "success" as const, description: "Photo uploaded." }
      : { type: "error" as const, description: result.error };
    return redirectWithToast(context.env, PAGE, toast);
  }
  return result.ok
    ? Response.json({ stored: true })
    : Response.json({ error: result.error }, { status: result.status });
}
