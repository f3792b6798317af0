import { redirect } from "react-router";
import { z } from "zod";
import { safeRedirect } from "~/lib/safe-redirect";
import { appCookie } from "./cookies.server";
import type { AppEnv } from "./env.server";

/** A one-shot message set by an action and shown by the root (Epic Stack's flash toast). */
export const toastSchema = z.object({
  id: z.string().default(() => crypto.randomUUID()),
  type: z.enum(["success", "error", "info"]).default("info"),
  title: z.string().optional(),
  description: z.string(),
});

type Toast = z.infer<typeof toastSchema>;
type ToastInput = z.input<typeof toastSchema>;

/** Signed, so no other page can plant a message; `__Host-toast` in production like every cookie. */
function toastCookie(env: AppEnv) {
  return appCookie(env, "toast", { secret: env.SESSION_SECRET });
}

export async function createToastHeader(env: AppEnv, toast: ToastInput): Promise<string> {
  return toastCookie(env).serialize(toastSchema.parse(toast));
}

export async function redirectWithToast(env: AppEnv, url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await createToastHeader(env, toast));
  return redirect(url, { ...init, headers });
}

/** Reads and consumes the pending toast: the returned header clears the cookie once it is shown. */
export async function getToast(request: Request, env: AppEnv): Promise<{ toast: Toast | null; headers: Headers }> {
  const cookie = toastCookie(env);
  const raw: unknown = await cookie.parse(request.headers.get("Cookie"));
  const result = toastSchema.safeParse(raw);
  const headers = new Headers();
  if (raw) headers.append("Set-Cookie", await cookie.serialize("", { maxAge: 0 }));
  return { toast: result.success ? result.data : null, headers };
}

/** A client's request was taken: back to the dashboard, where it shows as pending, with the page's message. */
export const requestTakenToDashboard = (env: AppEnv, message: string) =>
  redirectWithToast(env, "/dashboard", { type: "success", description: message });

/** A redirect to `url` with what happened as a toast, for a route whose posts have nothing to show of their own. */
export function toastingBackTo(env: AppEnv, url: string) {
  return (type: "success" | "error", description: string) => redirectWithToast(env, url, { type, description });
}

/**
 * A client's act posted from a page with nothing to show of its own (cancel a request, send the confirmation link
 * again): back to the page that asked (`redirectTo`, a path of this site, else `fallback`) with the outcome as a
 * toast, its success message or the refusal.
 */
export async function backWithOutcome(
  env: AppEnv,
  form: FormData,
  fallback: string,
  result: { ok: true } | { ok: false; error: string },
  success: string,
) {
  return redirectWithToast(
    env,
    safeRedirect(String(form.get("redirectTo") ?? ""), fallback),
    result.ok ? { type: "success", description: success } : { type: "error", description: result.error },
  );
}
