import { Link } from "react-router";
import { LanguageSelector } from "~/components/language-selector";
import { FOOTER_LINKS } from "~/lib/navigation";

export function SiteFooter({
  brandName,
  supportEmail,
  year,
}: {
  brandName: string;
  supportEmail: string;
  year: number;
}) {
  return (
    <footer className="border-t border-border bg-surface">
      <div className="mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-ink-muted md:flex-row md:items-center md:justify-between">
        <nav aria-label="Footer">
          <ul className="flex flex-wrap gap-x-4 gap-y-2">
            {FOOTER_LINKS.map((link) => (
              <li key={link.to}>
                <Link to={link.to} className="hover:text-ink">
                  {link.label}
                </Link>
              </li>
            ))}
            <li>
              <a href={`mailto:${supportEmail}`} className="hover:text-ink">
                Support
              </a>
            </li>
          </ul>
        </nav>
        <div className="flex flex-col gap-3 md:items-end">
          <LanguageSelector />
          <p>{`© ${year} ${brandName}. All rights reserved.`}</p>
        </div>
      </div>
    </footer>
  );
}
