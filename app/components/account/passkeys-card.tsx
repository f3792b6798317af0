import { useState } from "react";
import { Form, useRevalidator } from "react-router";
import { Moment } from "~/components/moment";
import { passkeyButtonClass, UsePasskeyButton } from "~/components/passkeys/use-passkey-button";
import { addPasskey } from "~/lib/passkey-client";
import { MAX_PASSKEYS, PASSKEY_MESSAGES, PASSKEY_NAME_MAX } from "~/lib/passkeys";
import { AccountCard } from "./account-card";
import { RecoveryCodes } from "./recovery-codes";
import { RemovePasskey } from "./remove-passkey";

const ACTION = "/account/passkeys";

export interface PasskeyRow {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  synced: boolean;
}

const inputClass =
  "mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 text-ink focus:border-brand focus:outline-none focus:ring-2 focus:ring-brand/40";

/**
 * Passkeys (docs/product.md, "Passkeys"): the account's passkeys with when each was added and last used, rename
 * and remove; and "Add a passkey", which asks first for the current password, or, with two-factor sign-in on, a
 * fresh code (or a passkey already held).
 */
export function PasskeysCard({
  passkeys,
  proof,
  admin = false,
  title = "Passkeys",
}: {
  /** An admin keeps a second factor: their last passkey is not offered as one that turns two-factor off. */
  admin?: boolean;
  passkeys: PasskeyRow[];
  /** The card's heading: "Or use a passkey" where an admin chooses their second factor. */
  title?: string;
  /**
   * What adding asks for first: the authenticator's code, a passkey already held (two-factor sign-in by passkey
   * alone), the current password, or nothing (no password).
   */
  proof: "code" | "passkey" | "password" | "none";
}) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [confirmed, setConfirmed] = useState(false);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const revalidator = useRevalidator();
  const full = passkeys.length >= MAX_PASSKEYS;

  async function add(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setBusy(true);
    setError(null);
    const outcome = await addPasskey(
      { currentPassword: String(form.get("currentPassword") ?? ""), code: String(form.get("code") ?? "") },
      String(form.get("name") ?? ""),
    );
    setBusy(false);
    if (!outcome.ok) return setError(outcome.error);
    if (outcome.recoveryCodes) setRecoveryCodes(outcome.recoveryCodes);
    event.currentTarget?.reset();
    // The toast the server set comes with the page's fresh data.
    revalidator.revalidate();
  }

  return (
    <AccountCard headingId="passkeys-heading" title={title}>
      <p className="mt-1 text-sm text-ink-muted">
        Sign in with your fingerprint, face or device PIN instead of a password and code. A passkey cannot be phished:
        it works only on this site.
      </p>
      {recoveryCodes ? (
        <div className="mt-4">
          <RecoveryCodes codes={recoveryCodes} factor="passkey" />
        </div>
      ) : null}
      {passkeys.length === 0 ? (
        <p className="mt-4 text-sm">No passkeys yet.</p>
      ) : (
        <ul className="mt-4 divide-y divide-border" data-testid="passkeys">
          {passkeys.map((passkey) => (
            <li key={passkey.id} className="py-3" data-testid="passkey-row">
              <p className="font-medium">
                {passkey.name}
                {passkey.synced ? (
                  <span className="ml-2 rounded bg-brand/20 px-2 py-0.5 text-xs font-semibold">Synced</span>
                ) : null}
              </p>
              <p className="text-sm text-ink-muted">
                Added <Moment at={passkey.createdAt} /> ·{" "}
                {passkey.lastUsedAt ? (
                  <>
                    last used <Moment at={passkey.lastUsedAt} />
                  </>
                ) : (
                  "never used"
                )}
              </p>
              <div className="mt-2 flex flex-wrap items-end gap-2">
                <Form method="post" action={ACTION} preventScrollReset className="flex flex-wrap items-end gap-2">
                  <input type="hidden" name="id" value={passkey.id} />
                  <label className="text-sm">
                    <span className="sr-only">New name for {passkey.name}</span>
                    <input
                      name="name"
                      defaultValue={passkey.name}
                      maxLength={PASSKEY_NAME_MAX}
                      required
                      className={`${inputClass} mt-0 py-1 text-sm`}
                    />
                  </label>
                  <button type="submit" name="intent" value="rename" className={passkeyButtonClass}>
                    Rename
                  </button>
                </Form>
                <RemovePasskey
                  id={passkey.id}
                  name={passkey.name}
                  // The account's only second factor: removing it turns two-factor sign-in off.
                  turnsOff={!admin && proof === "passkey" && passkeys.length === 1}
                />
              </div>
            </li>
          ))}
        </ul>
      )}
      {full ? (
        <p className="mt-4 text-sm text-ink-muted">You have {MAX_PASSKEYS} passkeys, the most an account can hold.</p>
      ) : (
        <form onSubmit={add} className="mt-6 space-y-3 border-t border-border pt-4">
          <h3 className="font-medium">Add a passkey</h3>
          <label className="block text-sm">
            Name (optional)
            <input name="name" maxLength={PASSKEY_NAME_MAX} placeholder="This browser" className={inputClass} />
          </label>
          {proof === "password" ? (
            <label className="block text-sm">
              Current Password
              <input
                name="currentPassword"
                type="password"
                autoComplete="current-password"
                required
                className={inputClass}
              />
            </label>
          ) : null}
          {proof === "code" ? (
            <label className="block text-sm">
              Enter the 6-digit code from your authenticator app
              <input name="code" inputMode="numeric" autoComplete="one-time-code" className={inputClass} />
            </label>
          ) : null}
          {error ? (
            <p role="alert" className="text-sm text-danger">
              {error}
            </p>
          ) : null}
          <button type="submit" disabled={busy} className={passkeyButtonClass}>
            {busy ? "Waiting for your passkey..." : "Add a passkey"}
          </button>
        </form>
      )}
      {passkeys.length > 0 ? (
        <div className="mt-6 space-y-3 border-t border-border pt-4">
          <h3 className="font-medium">Confirm it is you</h3>
          <p className="text-sm text-ink-muted">
            Removing a passkey{proof === "code" || proof === "passkey" ? ", or adding one," : ""} asks for a code from
            your authenticator app or a passkey in the last 10 minutes.
          </p>
          {proof === "code" ? (
            <Form method="post" action={ACTION} preventScrollReset className="flex flex-wrap items-end gap-2">
              <label className="text-sm">
                Code from your authenticator app
                <input name="code" inputMode="numeric" autoComplete="one-time-code" required className={inputClass} />
              </label>
              <button type="submit" name="intent" value="confirm" className={passkeyButtonClass}>
                Confirm
              </button>
            </Form>
          ) : null}
          <UsePasskeyButton
            url="/passkeys/verify"
            label="Confirm with a passkey"
            onVerified={() => setConfirmed(true)}
          />
          {confirmed ? (
            <p role="status" className="text-sm text-success">
              {PASSKEY_MESSAGES.confirmed}
            </p>
          ) : null}
        </div>
      ) : null}
    </AccountCard>
  );
}
