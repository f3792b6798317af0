import { Link } from "react-router";
import type { MailTrouble } from "~/server/admin/mail.server";
import { Banner } from "../form";

const notices = (n: number) => `${n} notice${n === 1 ? "" : "s"}`;

/**
 * The /admin banner while mail is not getting through: notices failing for over an hour or failed in the last
 * day (the rule is `mailTrouble` in app/server/admin/mail.server.ts). Renders nothing when `trouble` is null.
 */
export function MailFailureBanner({ trouble, mayResend }: { trouble: MailTrouble | null; mayResend: boolean }) {
  if (!trouble) return null;
  const parts = [
    trouble.failing > 0 ? `${notices(trouble.failing)} failing for over an hour` : null,
    trouble.failed > 0 ? `${notices(trouble.failed)} failed in the last 24 hours` : null,
  ].filter(Boolean);
  return (
    <Banner tone="error">
      <strong>Mail is not getting through:</strong> {parts.join(", ")}.
      {trouble.keyRefused ? " The mail provider refuses our API key (check RESEND_API_KEY)." : null}{" "}
      {mayResend ? (
        <Link to="/admin/mail" className="font-semibold underline">
          Review and resend
        </Link>
      ) : null}
    </Banner>
  );
}
