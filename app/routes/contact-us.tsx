import { pageMeta, RouteError } from "~/components/route-error";
import { useBrand } from "~/lib/brand";
import { contactContent } from "~/lib/content";
import { seo } from "~/lib/seo";
import type { Route } from "./+types/contact-us";

export const meta: Route.MetaFunction = pageMeta(({ matches }) =>
  seo(matches, { title: "Contact Us", description: "How to reach our support team.", path: "/contact-us" }),
);

export function loader({ context }: Route.LoaderArgs) {
  return { addresses: context.env.CONTACT_EMAILS };
}

export default function ContactUs({ loaderData }: Route.ComponentProps) {
  const { addresses } = loaderData;
  const content = contactContent(useBrand());
  return (
    <article className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold md:text-4xl">Contact Us</h1>
      <p className="mt-6 text-lg text-ink-muted">{content.intro}</p>
      <p className="mt-4 text-ink-muted">{content.responseText}</p>
      <h2 className="mt-10 text-2xl font-semibold">Support addresses</h2>
      <ul className="mt-4 space-y-3">
        {addresses.map((address) => (
          <li key={address}>
            <a href={`mailto:${address}`} className="text-brand underline-offset-4 hover:underline">
              {address}
            </a>
          </li>
        ))}
      </ul>
    </article>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
