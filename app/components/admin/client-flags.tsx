import { CLIENT_FLAG_LABELS, type ClientFlag } from "~/lib/client-flags";

const TONES: Record<ClientFlag, string> = {
  watch: "bg-pending/15 text-pending",
  vip: "bg-brand/15 text-brand",
  do_not_contact: "bg-danger/15 text-danger",
};

/** A client's current flags as badges (the client page, User Management); nothing when none is set. */
export function ClientFlagBadges({ flags, className = "" }: { flags: readonly ClientFlag[]; className?: string }) {
  if (flags.length === 0) return null;
  return (
    <ul aria-label="Flags" className={`inline-flex flex-wrap gap-1 ${className}`}>
      {flags.map((flag) => (
        <li
          key={flag}
          className={`rounded-full px-2 py-0.5 text-xs font-medium ${TONES[flag]}`}
          data-testid="client-flag"
        >
          {CLIENT_FLAG_LABELS[flag]}
        </li>
      ))}
    </ul>
  );
}

/**
 * Beside a pending withdrawal of a client flagged Watch: whoever decides it sees the flag on the row itself. The
 * hidden words make its name 'Client flagged: Watch' for a screen reader.
 */
export function WatchBadge() {
  return (
    <span
      className={`ml-2 inline-block whitespace-nowrap rounded-full px-2 py-0.5 text-xs font-medium ${TONES.watch}`}
      title="This client is flagged Watch"
      data-testid="watch-badge"
    >
      <span className="sr-only">Client flagged: </span>
      {CLIENT_FLAG_LABELS.watch}
    </span>
  );
}
