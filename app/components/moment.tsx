import { formatDateTime } from "~/lib/format";

/** A moment as the account's lists and the history show it: date and time in UTC, with the machine-readable instant. */
export function Moment({ at }: { at: number }) {
  return <time dateTime={new Date(at).toISOString()}>{formatDateTime(at)} UTC</time>;
}
