import { RouteError } from "~/components/route-error";
import { notFound } from "~/server/http.server";

/** Any unknown path: a real 404 status, rendered by the error boundary inside the site's shell. */
export function loader() {
  notFound();
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <RouteError />;
}
