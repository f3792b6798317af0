import { Article } from "~/components/article";
import { useBrand } from "~/lib/brand";
import { termsContent } from "~/lib/content";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/terms-of-service";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Terms of Service",
    description: "The terms that apply to your account, orders and positions, and the risks of trading.",
    path: "/terms-of-service",
  });

export default function TermsOfService() {
  const content = termsContent(useBrand());
  return (
    <Article title="Terms and Conditions" intro={content.intro} updated={content.updated} sections={content.sections}>
      <aside aria-labelledby="risk-warning" className="mt-8 rounded-xl border border-pending/50 bg-pending/10 p-5">
        <h2 id="risk-warning" className="text-xl font-semibold text-pending">
          {content.riskWarning.heading}
        </h2>
        {content.riskWarning.paragraphs.map((paragraph) => (
          <p key={paragraph} className="mt-3 text-ink">
            {paragraph}
          </p>
        ))}
      </aside>
    </Article>
  );
}
