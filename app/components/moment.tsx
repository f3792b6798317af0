import { formatDateTimeUtc } from "~/lib/format";

/**
 * A moment as every page shows one, the client's and the back office's alike: date and time in UTC, saying
 * so ("Mar 5, 2026, 2:07 PM UTC"), with the machine-readable instant.
 */
export function Moment({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDateTimeUtc(at)}</time>;
}
