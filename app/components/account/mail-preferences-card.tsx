import { Form } from "react-router";
import { SubmitButton } from "~/components/form";
import { ALWAYS_SENT_MAILS, MAIL_CATEGORY_LIST } from "~/lib/mail-preferences";
import type { MailCategory } from "../../../db/enums";
import { AccountCard } from "./account-card";

/**
 * Which optional mails the client wants (docs/product.md, "Mail preferences"). Notifications are written whatever
 * is chosen here; the mails that cannot be turned off are listed, not offered.
 */
export function MailPreferencesCard({ wanted }: { wanted: Record<MailCategory, boolean> }) {
  return (
    <AccountCard headingId="mail-preferences-heading" title="Mail preferences">
      <p className="mt-2 text-sm text-ink-muted">
        Choose which mails we send you. Everything still shows in your notifications.
      </p>
      {/* Keyed on the stored choices, so the boxes show what was saved after every save. */}
      <Form method="post" className="mt-4 space-y-4" key={JSON.stringify(wanted)}>
        <fieldset className="space-y-3">
          <legend className="sr-only">Mails you may turn off</legend>
          {MAIL_CATEGORY_LIST.map(({ category, label, hint }) => (
            <div key={category} className="flex items-start gap-3">
              <input
                id={`mail-${category}`}
                name={category}
                type="checkbox"
                defaultChecked={wanted[category]}
                aria-describedby={`mail-${category}-hint`}
                className="mt-1 h-4 w-4 accent-brand"
              />
              <div>
                <label htmlFor={`mail-${category}`} className="font-medium">
                  {label}
                </label>
                <p id={`mail-${category}-hint`} className="text-sm text-ink-muted">
                  {hint}
                </p>
              </div>
            </div>
          ))}
        </fieldset>
        <div>
          <h3 className="text-sm font-semibold">Always sent</h3>
          <ul className="mt-1 list-disc space-y-1 pl-5 text-sm text-ink-muted">
            {ALWAYS_SENT_MAILS.map((line) => (
              <li key={line}>{line}</li>
            ))}
          </ul>
        </div>
        <SubmitButton intent="mail-preferences" pendingText="Saving...">
          Save mail preferences
        </SubmitButton>
      </Form>
    </AccountCard>
  );
}
