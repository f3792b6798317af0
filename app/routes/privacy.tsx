import { Article } from "~/components/article";
import { useBrand } from "~/lib/brand";
import { privacyContent } from "~/lib/content";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/privacy";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "Privacy Policy",
    description: "How we collect, share, keep and protect your personal information.",
    path: "/privacy",
  });

export default function Privacy() {
  const content = privacyContent(useBrand());
  return <Article title="Privacy Policy" intro={content.intro} updated={content.updated} sections={content.sections} />;
}
