import type { MetaDescriptor } from "react-router";
import { isRouteErrorResponse, Link, useRouteError, useRouteLoaderData } from "react-router";
import { withBrand } from "~/lib/seo";

interface ErrorText {
  title: string;
  /** The sentence under the title; null for none. */
  text: string | null;
}

const NOT_FOUND: ErrorText = {
  title: "Page not found",
  text: "The page you are looking for does not exist or has moved.",
};
const FAILED: ErrorText = {
  title: "Something went wrong",
  text: "An unexpected error occurred. Please try again in a moment.",
};
const REFUSED_TITLE = "The request could not be processed";
const HOME = { to: "/", label: "Back to Home" };
const ADMIN_PANEL = { to: "/admin", label: "Back to Admin Panel" };

/** Where a signed-in admin goes back to: their panel, not the public landing page. */
function useDefaultBack() {
  const root = useRouteLoaderData("root") as { viewer?: { role?: string } | null } | undefined;
  return root?.viewer?.role === "admin" ? ADMIN_PANEL : HOME;
}

/**
 * Every page's error boundary: what a thrown 404, a refused request (400, 415: the reason the server gave)
 * or an unexpected failure looks like. It renders in the route's place, so the site's header and footer
 * stay. A page may name its own titles and way back (the client page: "User not found", back to the desk); by
 * default the way back is the admin panel for a signed-in admin, the landing page for anyone else.
 */
export function RouteError({
  notFound = NOT_FOUND,
  failed = FAILED,
  back,
  showStatus = true,
}: {
  notFound?: ErrorText;
  failed?: ErrorText;
  back?: { to: string; label: string };
  /** The small status line above the title ("404", "Error"). */
  showStatus?: boolean;
}) {
  const error = useRouteError();
  const defaultBack = useDefaultBack();
  const way = back ?? defaultBack;
  const response = isRouteErrorResponse(error) ? error : null;
  const refused = response !== null && response.status >= 400 && response.status < 500 && response.status !== 404;
  if (!response || response.status >= 500) console.error(error);

  let shown = failed;
  if (response?.status === 404) shown = notFound;
  else if (refused) shown = { title: REFUSED_TITLE, text: typeof response.data === "string" ? response.data : null };

  return (
    <section className="mx-auto max-w-xl py-16 text-center">
      {showStatus ? (
        <p className="text-sm font-semibold text-brand">
          {response && response.status < 500 ? response.status : "Error"}
        </p>
      ) : null}
      <h1 className={showStatus ? "mt-2 text-3xl font-bold" : "text-2xl font-bold"}>{shown.title}</h1>
      {shown.text ? <p className="mt-4 text-ink-muted">{shown.text}</p> : null}
      <Link
        to={way.to}
        className={
          showStatus
            ? "mt-8 inline-block rounded-md bg-brand-strong px-4 py-2 font-medium text-white hover:bg-brand-hover"
            : "mt-6 inline-block text-brand hover:underline"
        }
      >
        {way.label}
      </Link>
    </section>
  );
}

/** What `pageMeta` reads of a route's meta arguments (`Route.MetaArgs`). */
interface PageMetaArgs {
  error?: unknown;
  matches: ReadonlyArray<{ id: string; loaderData?: unknown; meta: MetaDescriptor[] } | undefined>;
}

/**
 * A page's meta, its title followed by the brand ("Dashboard | Northwind Markets"), except on its error page,
 * which keeps the site's own title (the root's meta): an error page is the site's, not the page's, and a 404
 * must not name the page it stands for (the production /dev/mailbox).
 */
export function pageMeta<Args extends PageMetaArgs>(
  meta: (args: Args) => MetaDescriptor[],
): (args: Args) => MetaDescriptor[] {
  return (args) => {
    if (args.error) return args.matches.find((match) => match?.id === "root")?.meta ?? [];
    return meta(args).map((descriptor) =>
      "title" in descriptor && typeof descriptor.title === "string"
        ? { title: withBrand(descriptor.title, args.matches) }
        : descriptor,
    );
  };
}
