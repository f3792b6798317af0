import { redirect } from "@remix-run/cloudflare";

/** SPEC §2: /user without a client id goes to /dashboard. */
export function loader() {
  return redirect("/dashboard");
}
