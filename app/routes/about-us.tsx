import { Article } from "~/components/article";
import { useBrand } from "~/lib/brand";
import { aboutContent } from "~/lib/content";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/about-us";

export const meta: Route.MetaFunction = ({ matches }) =>
  seo(matches, {
    title: "About Us",
    description: "Copy trading, stock trading, crypto trading and forex trading in one account.",
    path: "/about-us",
  });

export default function AboutUs() {
  const content = aboutContent(useBrand());
  return <Article title="About Us" intro={content.intro} sections={content.sections} />;
}
