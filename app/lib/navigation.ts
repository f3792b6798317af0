/** Header links per role (docs/product.md, "Screens"). */
export interface NavLink {
  to: string;
  label: string;
}

/** Who is looking; `mustEnrol`: an admin whose only page is the two-factor set-up (everything else sends them back). */
export type Viewer = { role: "user" | "admin"; mustEnrol?: boolean; managesTeam?: boolean } | null;

const SIGNED_OUT: NavLink[] = [
  { to: "/", label: "Home" },
  { to: "/about-us", label: "About Us" },
  { to: "/login", label: "Sign In" },
  { to: "/register", label: "Register" },
];

const CLIENT: NavLink[] = [
  { to: "/dashboard", label: "Dashboard" },
  { to: "/transactions", label: "History" },
  { to: "/deposit", label: "Deposit" },
  { to: "/withdraw", label: "Withdraw" },
  { to: "/trading-room", label: "Trading Room" },
  { to: "/stocks", label: "Stocks" },
  { to: "/account", label: "Account" },
];

// Admins see the back office and their account only; the client links are hidden for them.
const ADMIN: NavLink[] = [
  { to: "/admin", label: "Admin Panel" },
  { to: "/account", label: "Account" },
];

const TEAM: NavLink = { to: "/admin/team", label: "Team" };

export function navLinksFor(viewer: Viewer): NavLink[] {
  if (!viewer) return SIGNED_OUT;
  // Links that would only bounce back to the set-up page are not offered: Sign Out is the one way elsewhere.
  if (viewer.mustEnrol) return [];
  if (viewer.role !== "admin") return CLIENT;
  // The team page is for owners (app/lib/permissions.ts, `manageTeam`); others are not offered it.
  return viewer.managesTeam ? [ADMIN[0] as NavLink, TEAM, ...ADMIN.slice(1)] : ADMIN;
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
