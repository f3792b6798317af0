import { useEffect, useId, useState } from "react";
import { Form, Link, NavLink as RouterNavLink, useLocation } from "react-router";
import { navLinksFor, type Viewer } from "~/lib/navigation";
import { ThemeChoicesInline, ThemeMenu } from "./theme-switch";

// From 1024 px the client's eight links, Sign Out, the theme switch and the bell share one line: the links' wider
// padding waits for 1280 px, where there is room for it.
const linkClass = ({ isActive }: { isActive: boolean }) =>
  `whitespace-nowrap rounded-md px-2 py-2 text-sm font-medium transition-colors lg:px-1.5 xl:px-3 hover:bg-surface-raised hover:text-ink ${
    isActive ? "bg-surface-raised text-ink" : "text-ink-muted"
  }`;

function SignOutButton({ className = "" }: { className?: string }) {
  return (
    <Form method="post" action="/logout" className={className}>
      <button
        type="submit"
        className="w-full whitespace-nowrap rounded-md border border-border px-3 py-2 text-left text-sm font-medium text-ink hover:bg-surface-raised lg:w-auto"
      >
        Sign Out
      </button>
    </Form>
  );
}

/**
 * The client's bell: their unread notifications, from the root loader, so it changes whenever the page's data is
 * read again (a navigation, a form, an event on the client's feed). The number is in the link's name, not only
 * drawn.
 */
function NotificationBell({ unread }: { unread: number }) {
  const label = unread === 0 ? "Notifications" : `Notifications, ${unread} unread`;
  return (
    <RouterNavLink
      to="/notifications"
      aria-label={label}
      title={label}
      className={({ isActive }) =>
        `relative inline-flex h-10 w-10 items-center justify-center rounded-md hover:bg-surface-raised hover:text-ink ${
          isActive ? "bg-surface-raised text-ink" : "text-ink-muted"
        }`
      }
      data-testid="notification-bell"
    >
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor">
        <path
          d="M18 8a6 6 0 1 0-12 0c0 7-3 9-3 9h18s-3-2-3-9M13.7 21a2 2 0 0 1-3.4 0"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
        />
      </svg>
      {unread > 0 ? (
        <span
          aria-hidden="true"
          data-testid="notification-count"
          className="absolute -right-0.5 -top-0.5 min-w-5 rounded-full bg-danger px-1 text-center text-xs font-semibold leading-5 text-canvas"
        >
          {unread > 99 ? "99+" : unread}
        </span>
      ) : null}
    </RouterNavLink>
  );
}

export function SiteHeader({
  brandName,
  viewer,
  unreadNotifications,
}: {
  brandName: string;
  viewer: Viewer;
  /** The client's unread notifications; absent for a visitor or an admin (no bell). */
  unreadNotifications?: number;
}) {
  const links = navLinksFor(viewer);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const location = useLocation();

  // A navigation from the mobile menu closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every location change by design
  useEffect(() => setMenuOpen(false), [location.key]);

  // The bottom rule is a shadow, not a border, so the bar is exactly 64 px tall (docs/product.md, "Constants").
  return (
    <header className="sticky top-0 z-40 bg-surface/95 shadow-[0_1px_0_var(--color-border)] backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-header max-w-6xl items-center justify-between px-4">
        <Link to="/" className="whitespace-nowrap text-lg font-semibold tracking-tight text-ink">
          {brandName}
        </Link>
        <ul className="ml-auto hidden items-center gap-1 lg:flex">
          {links.map((link) => (
            <li key={link.to}>
              <RouterNavLink to={link.to} end={link.to === "/"} prefetch="intent" className={linkClass}>
                {link.label}
              </RouterNavLink>
            </li>
          ))}
          {viewer ? (
            <li className="ml-2">
              <SignOutButton />
            </li>
          ) : null}
        </ul>
        {/* The theme switch opens from here at desktop width; on a phone it is in the menu, with the links. */}
        <div className="flex items-center gap-2 lg:ml-2 lg:gap-1">
          <div className="hidden lg:block">
            <ThemeMenu />
          </div>
          {unreadNotifications !== undefined ? <NotificationBell unread={unreadNotifications} /> : null}
          <button
            type="button"
            className="inline-flex items-center rounded-md border border-border px-3 py-2 text-sm text-ink lg:hidden"
            aria-expanded={menuOpen}
            aria-controls={menuId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className="sr-only">{menuOpen ? "Close menu" : "Open menu"}</span>
            <svg aria-hidden="true" width="20" height="20" viewBox="0 0 20 20" fill="none" stroke="currentColor">
              {menuOpen ? (
                <path d="M5 5l10 10M15 5L5 15" strokeWidth="2" />
              ) : (
                <path d="M3 6h14M3 10h14M3 14h14" strokeWidth="2" />
              )}
            </svg>
          </button>
        </div>
      </nav>
      <div id={menuId} hidden={!menuOpen} className="border-t border-border bg-surface lg:hidden">
        <ul className="mx-auto flex max-w-6xl flex-col gap-1 px-4 py-3">
          {links.map((link) => (
            <li key={link.to}>
              <RouterNavLink to={link.to} end={link.to === "/"} className={(state) => `block ${linkClass(state)}`}>
                {link.label}
              </RouterNavLink>
            </li>
          ))}
          {viewer ? (
            <li>
              <SignOutButton />
            </li>
          ) : null}
          <li className="mt-2 border-t border-border pt-2">
            <ThemeChoicesInline />
          </li>
        </ul>
      </div>
    </header>
  );
}
