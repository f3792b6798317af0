import type { RegistrationResponseJSON } from "@simplewebauthn/server";
import { redirect } from "react-router";
import { z } from "zod";
import { PASSKEY_MESSAGES } from "~/lib/passkeys";
import { optionsJson, readCeremonyBody, recoveryCodesJson, refusalJson } from "~/server/auth/passkey-http.server";
import { removePasskey } from "~/server/auth/passkey-removal.server";
import { finishAddingPasskey, renamePasskey, startAddingPasskey } from "~/server/auth/passkeys.server";
import { confirmWithCode } from "~/server/auth/second-factor-proof.server";
import { readForm } from "~/server/form.server";
import { requireUser } from "~/server/session.server";
import { toastingBackTo } from "~/server/toast.server";
import type { Route } from "./+types/account.passkeys";

const changeSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("rename"), id: z.string().min(1).max(1024), name: z.string().max(200) }),
  // `turnsOff` is the confirmation that removing the last second factor turns two-factor sign-in off.
  z.object({
    intent: z.literal("remove"),
    id: z.string().min(1).max(1024),
    turnsOff: z.literal("confirmed").optional(),
  }),
  z.object({ intent: z.literal("confirm"), code: z.string().max(32) }),
]);

/** The Passkeys card's posts (docs/product.md, "Passkeys"); nothing to show. */
export async function loader() {
  return redirect("/account");
}

/**
 * Adding is the ceremony's two JSON posts (the proof with the first); renaming, removing and confirming with a
 * code (which removing asks for) are the card's forms, answered back on /account with what happened.
 */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request, context, { twoFactorSetup: true });
  const back = toastingBackTo(context.env, "/account");
  if ((request.headers.get("Content-Type") ?? "").startsWith("application/json")) {
    const body = await readCeremonyBody(request);
    if (body.intent === "options") {
      const result = await startAddingPasskey(context, request, user, body);
      if (result.ok) return optionsJson(result.options);
      return refusalJson(result);
    }
    const result = await finishAddingPasskey(context, request, user, {
      response: body.response as unknown as RegistrationResponseJSON,
      name: body.name ?? "",
    });
    if (!result.ok) return refusalJson(result);
    // The first second factor's recovery codes go to the page that shows them, once; the toast comes with them.
    if (result.recoveryCodes) return recoveryCodesJson(context.env, result.recoveryCodes, PASSKEY_MESSAGES.added);
    return back("success", PASSKEY_MESSAGES.added);
  }
  const parsed = changeSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return back("error", PASSKEY_MESSAGES.notFound);
  const change = parsed.data;
  const result =
    change.intent === "rename"
      ? await renamePasskey(context, request, user, change)
      : change.intent === "remove"
        ? await removePasskey(context, request, user, change.id, change.turnsOff === "confirmed")
        : await confirmWithCode(context, user, change.code);
  if (!result.ok) return back("error", result.error);
  const done = {
    rename: PASSKEY_MESSAGES.renamed,
    remove: PASSKEY_MESSAGES.removed,
    confirm: PASSKEY_MESSAGES.confirmed,
  };
  if ("twoFactorOff" in result && result.twoFactorOff) return back("success", PASSKEY_MESSAGES.removedLast);
  return back("success", done[change.intent]);
}
