/**
 * The passkey routes' JSON exchange with the browser (app/components/passkey-button.tsx): the ceremony's body is
 * `{ intent: "options" }` or `{ intent: "verify", response, … }`, and every answer is JSON, refusals as `{ error }`
 * with their status. A completed sign-in answers `{ redirectTo }` with the session's cookies, so the page moves on.
 */
import { z } from "zod";
import type { AppEnv } from "../env.server";
import { badRequest } from "../http.server";
import { createToastHeader } from "../toast.server";

const ceremonyBody = z.discriminatedUnion("intent", [
  // Adding a passkey sends its proof with the options' request (the others send none).
  z.object({
    intent: z.literal("options"),
    currentPassword: z.string().max(200).optional(),
    code: z.string().max(32).optional(),
  }),
  z.object({
    intent: z.literal("verify"),
    // The browser's credential as @simplewebauthn/browser returns it: the library checks its every field, so none
    // may be dropped here (the attestation, the signature and the user handle sit beside the client data).
    response: z
      .object({
        id: z.string().max(1024),
        response: z.object({ clientDataJSON: z.string().max(8192) }).passthrough(),
      })
      .passthrough(),
    redirectTo: z.string().max(2048).nullish(),
    name: z.string().max(200).nullish(),
  }),
]);
const MAX_CEREMONY_BODY = 64 * 1024;
export type CeremonyBody = z.infer<typeof ceremonyBody>;

/** The ceremony's body, or a 400 for anything else. */
export async function readCeremonyBody(request: Request): Promise<CeremonyBody> {
  if (!(request.headers.get("Content-Type") ?? "").startsWith("application/json")) badRequest("Expected JSON.");
  // A ceremony's answer is a few KB: anything far larger is not one, and is not parsed.
  const text = await request.text();
  if (text.length > MAX_CEREMONY_BODY) badRequest("Malformed passkey request.");
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = null;
  }
  const parsed = ceremonyBody.safeParse(json);
  if (!parsed.success) badRequest("Malformed passkey request.");
  return parsed.data;
}

/*
 * Plain Responses, not React Router's `data()`: these routes are fetched by the page's script, not loaded as route data,
 * and a resource route answers `data()` with status 200 and without its headers.
 */

/** The ceremony's options, as the browser's library takes them. */
export const optionsJson = (options: object) => Response.json(options);

/** A refusal: its words, and the field it is about when there is one (the add form's password or code). */
export const refusalJson = (refusal: { error: string; status: number; field?: string }) =>
  Response.json({ error: refusal.error, field: refusal.field }, { status: refusal.status });

/** New recovery codes for the page to show once, with the outcome's toast for when the page reloads its data. */
export async function recoveryCodesJson(env: AppEnv, recoveryCodes: string[], message: string) {
  const headers = new Headers({ "Cache-Control": "no-store" });
  headers.append("Set-Cookie", await createToastHeader(env, { type: "success", description: message }));
  return Response.json({ recoveryCodes }, { headers });
}

/** A sign-in's redirect as JSON, with its cookies: the page follows `redirectTo` itself. */
export function signedInJson(redirect: Response) {
  const headers = new Headers();
  for (const cookie of redirect.headers.getSetCookie()) headers.append("Set-Cookie", cookie);
  return Response.json({ redirectTo: redirect.headers.get("Location") ?? "/" }, { headers });
}
