import type { ReactNode } from "react";
import type { Section } from "~/lib/content";

/** The static pages' layout: one h1, an intro, and sections with h2 headings. */
export function Article({
  title,
  intro,
  updated,
  sections,
  children,
}: {
  title: string;
  intro: string;
  updated?: string;
  sections: Section[];
  children?: ReactNode;
}) {
  return (
    <article className="mx-auto max-w-3xl">
      <h1 className="text-3xl font-bold md:text-4xl">{title}</h1>
      {updated ? <p className="mt-2 text-sm text-ink-muted">Last updated: {updated}</p> : null}
      <p className="mt-6 text-lg text-ink-muted">{intro}</p>
      {children}
      {sections.map((section) => (
        <section key={section.heading} className="mt-10" aria-labelledby={slug(section.heading)}>
          <h2 id={slug(section.heading)} className="text-2xl font-semibold">
            {section.heading}
          </h2>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph} className="mt-4 leading-relaxed text-ink-muted">
              {paragraph}
            </p>
          ))}
          {section.bullets ? (
            <ul className="mt-4 list-disc space-y-2 pl-6 text-ink-muted">
              {section.bullets.map((bullet) => (
                <li key={bullet}>{bullet}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </article>
  );
}

const slug = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/(^-|-$)/g, "");
