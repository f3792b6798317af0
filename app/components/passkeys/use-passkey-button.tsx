import { useState } from "react";
import { type CeremonyOutcome, runPasskey } from "~/lib/passkey-client";

export const passkeyButtonClass =
  "inline-flex items-center justify-center gap-2 rounded-md border border-border bg-surface px-4 py-2 text-sm font-medium text-ink hover:bg-canvas focus:outline-none focus-visible:ring-2 focus-visible:ring-brand disabled:cursor-not-allowed disabled:opacity-60";

/**
 * A button that runs a passkey ceremony against `url` (/passkeys/sign-in or /passkeys/verify) and hands the
 * outcome on; the browser's or the server's refusal shows under it in words.
 */
export function UsePasskeyButton({
  url,
  label,
  onVerified,
  redirectTo,
  className,
}: {
  url: string;
  label: string;
  onVerified: (outcome: Extract<CeremonyOutcome, { ok: true }>) => void;
  redirectTo?: string;
  className?: string;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  async function run() {
    setBusy(true);
    setError(null);
    const outcome = await runPasskey(url, redirectTo ? { redirectTo } : {});
    setBusy(false);
    if (outcome.ok) onVerified(outcome);
    else setError(outcome.error);
  }
  return (
    <div className={className}>
      <button type="button" onClick={run} disabled={busy} className={`w-full ${passkeyButtonClass}`}>
        {busy ? "Waiting for your passkey..." : label}
      </button>
      {error ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          {error}
        </p>
      ) : null}
    </div>
  );
}
