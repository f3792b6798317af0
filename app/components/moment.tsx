import { formatDateTimeUtc } from "~/lib/format";

/**
 * A moment as every page shows one, the client's and the back office's alike: date and time in UTC, saying
 * so ("Mar 5, 2026, 2:07 PM UTC"), with the machine-readable instant. In a narrow column it breaks between the
 * date and the time, never inside either: the halves keep together by one rule for every `<time>`'s spans
 * (app/tailwind.css), not a class on each of the 100 spans of a 50-row table.
 */
export function Moment({ at }: { at: number }) {
  const text = formatDateTimeUtc(at);
  const cut = text.lastIndexOf(", ") + 1;
  return (
    <time dateTime={new Date(at).toISOString()}>
      <span>{text.slice(0, cut)}</span> <span>{text.slice(cut + 1)}</span>
    </time>
  );
}
