import { CANCEL_MESSAGES } from "~/lib/schemas/requests";
import { readForm } from "~/server/form.server";
import { cancel } from "~/server/ledger/cancel.server";
import { requireClient } from "~/server/session.server";
import { backWithOutcome } from "~/server/toast.server";
import type { Route } from "./+types/requests.$id.cancel";

/**
 * A client cancels one of their pending requests (POST only), from any page that lists them: back to that
 * page (`redirectTo`, a path of this site) with the outcome as a toast.
 */
export async function action({ request, params, context }: Route.ActionArgs) {
  const client = await requireClient(request, context);
  const form = await readForm(request);
  const transactionId = Number(params.id);
  const result = Number.isSafeInteger(transactionId)
    ? await cancel(context, { id: client.id, email: client.email }, transactionId)
    : { ok: false as const, error: CANCEL_MESSAGES.notFound };
  return backWithOutcome(context.env, form, "/dashboard", result, CANCEL_MESSAGES.cancelled);
}
