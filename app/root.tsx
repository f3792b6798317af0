import type { ReactNode } from "react";
import { data, Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteLoaderData } from "react-router";
import { ActivityTracker } from "~/components/activity-tracker";
import { LiveChat } from "~/components/live-chat";
import { NavigationProgress } from "~/components/navigation-progress";
import { RouteError } from "~/components/route-error";
import { SiteFooter } from "~/components/site-footer";
import { SiteHeader } from "~/components/site-header";
import { Toasts } from "~/components/toasts";
import { useNonce } from "~/lib/nonce";
import { THEME_CANVAS, useThemeChoice } from "~/lib/theme";
import { getSessionUser, mustSetUpTwoFactor } from "~/server/session.server";
import { readThemeChoice } from "~/server/theme.server";
import { getToast } from "~/server/toast.server";
import stylesheet from "~/tailwind.css?url";
import type { Route } from "./+types/root";

export const links: Route.LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "manifest", href: "/site.webmanifest" },
];

export const meta: Route.MetaFunction = ({ loaderData }) => [{ title: loaderData?.brand.name ?? "Client portal" }];

export async function loader({ request, context }: Route.LoaderArgs) {
  const [user, { toast, headers }] = await Promise.all([
    getSessionUser(request, context),
    getToast(request, context.env),
  ]);
  return data(
    {
      viewer: user
        ? {
            role: user.role,
            firstName: user.firstName,
            mustEnrol: mustSetUpTwoFactor(user),
            roles: user.roles,
            // The step-up field offers "Use a passkey" to an account that holds one.
            passkey: user.hasPasskey,
          }
        : null,
      // The header's bell, for a client who may use the site (one subquery of the session's own read).
      unreadNotifications: user?.role === "user" && !mustSetUpTwoFactor(user) ? user.unreadNotifications : null,
      toast,
      brand: { name: context.env.BRAND_NAME, supportEmail: context.env.SUPPORT_EMAIL },
      siteUrl: new URL(request.url).origin,
      // The chat's third-party script reads the address it runs on: never on a page whose address carries a
      // token (the cancel link, the password reset and e-mail confirmation links).
      liveChatTawkId: new URL(request.url).searchParams.has("token") ? null : (context.env.LIVE_CHAT_TAWK_ID ?? null),
      year: new Date().getUTCFullYear(),
      // The theme switch's choice, so the first paint is already in it (no flash of the other theme).
      theme: readThemeChoice(request, context.env),
    },
    { headers },
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const rootData = useRouteLoaderData<typeof loader>("root");
  const brandName = rootData?.brand.name ?? "Client portal";
  // "system" sets nothing: the stylesheet's prefers-color-scheme decides.
  const theme = useThemeChoice();
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        {theme === "system" ? (
          <>
            <meta name="theme-color" media="(prefers-color-scheme: light)" content={THEME_CANVAS.light} />
            <meta name="theme-color" media="(prefers-color-scheme: dark)" content={THEME_CANVAS.dark} />
          </>
        ) : (
          <meta name="theme-color" content={THEME_CANVAS[theme]} />
        )}
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col bg-canvas font-sans text-ink antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-brand-strong focus:px-3 focus:text-white focus:py-2"
        >
          Skip to content
        </a>
        <NavigationProgress />
        <SiteHeader
          brandName={brandName}
          viewer={rootData?.viewer ?? null}
          unreadNotifications={rootData?.unreadNotifications ?? undefined}
        />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8">
          {children}
        </main>
        <SiteFooter
          brandName={brandName}
          supportEmail={rootData?.brand.supportEmail ?? ""}
          year={rootData?.year ?? new Date().getUTCFullYear()}
        />
        <Toasts flash={rootData?.toast ?? null} />
        {rootData?.viewer ? <ActivityTracker /> : null}
        <LiveChat tawkId={rootData?.liveChatTawkId} />
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** When the root itself fails (or a page has no boundary of its own): the same error page, in the shell. */
export function ErrorBoundary() {
  return <RouteError />;
}
