import { type BackOfficeRole, may, type Permission } from "./permissions";

/** Header links per role (docs/product.md, "Screens"). */
export interface NavLink {
  to: string;
  label: string;
}

/**
 * Who is looking; `mustEnrol`: an admin whose only page is the two-factor set-up (everything else sends them back);
 * `roles`: an admin's back-office roles, which decide the back-office links they see.
 */
export type Viewer = { role: "user" | "admin"; mustEnrol?: boolean; roles?: readonly BackOfficeRole[] } | null;

const SIGNED_OUT: NavLink[] = [
  { to: "/", label: "Home" },
  { to: "/about-us", label: "About Us" },
  { to: "/login", label: "Sign In" },
  { to: "/register", label: "Register" },
];

const CLIENT: NavLink[] = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/portfolio", label: "Portfolio" },
  { to: "/transactions", label: "History" },
  { to: "/deposit", label: "Deposit" },
  { to: "/withdraw", label: "Withdraw" },
  { to: "/trading-room", label: "Trading Room" },
  { to: "/stocks", label: "Stocks" },
  { to: "/account", label: "Account" },
];

// Admins see the back office (the links their roles open) and their account; the client links are hidden for them.
const ADMIN: Array<NavLink & { permission?: Permission }> = [
  { to: "/admin", label: "Admin Panel", permission: "readClients" },
  { to: "/admin/alerts", label: "Alerts", permission: "reviewAlerts" },
  { to: "/admin/team", label: "Team", permission: "manageTeam" },
  { to: "/account", label: "Account" },
];

export function navLinksFor(viewer: Viewer): NavLink[] {
  if (!viewer) return SIGNED_OUT;
  // Links that would only bounce back to the set-up page are not offered: Sign Out is the one way elsewhere.
  if (viewer.mustEnrol) return [];
  if (viewer.role !== "admin") return CLIENT;
  return ADMIN.filter((link) => !link.permission || may(viewer.roles ?? [], link.permission)).map(({ to, label }) => ({
    to,
    label,
  }));
}

export const FOOTER_LINKS: NavLink[] = [
  { to: "/", label: "Home" },
  { to: "/about-us", label: "About Us" },
  { to: "/contact-us", label: "Contact Us" },
  { to: "/privacy", label: "Privacy Policy" },
  { to: "/terms-of-service", label: "Terms of Service" },
];

/** Every back-office page's title names the page, then the back office: "Audit Log · Admin Panel". */
export const adminPageTitle = (page?: string) => (page ? `${page} · Admin Panel` : "Admin Panel");
