import { parseRowId } from "~/lib/row-id";
import { CANCEL_MESSAGES } from "~/lib/schemas/requests";
import { runAct } from "~/server/acts.server";
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
  const transactionId = parseRowId(params.id);
  const asked = await runAct(context, client, "requestCancel", {
    before: () =>
      transactionId === null ? { ok: false, error: CANCEL_MESSAGES.notFound } : { ok: true, data: transactionId },
    run: (id) => cancel(context, { id: client.id, email: client.email }, id),
  });
  const result = "answer" in asked ? asked.answer : asked.refused;
  return backWithOutcome(context.env, form, "/dashboard", result, CANCEL_MESSAGES.cancelled);
}
