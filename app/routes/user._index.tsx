import { redirect } from "react-router";

/** /user without a client id goes to /dashboard. */
export function loader() {
  return redirect("/dashboard");
}
