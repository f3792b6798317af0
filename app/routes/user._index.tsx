import { redirect } from "@remix-run/cloudflare";

/** /user without a client id goes to /dashboard. */
export function loader() {
  return redirect("/dashboard");
}
