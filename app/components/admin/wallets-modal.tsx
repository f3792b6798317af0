import { useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { Banner, FormErrors, useFieldError } from "~/components/form";
import { Modal } from "~/components/modal";
import { StepUpField } from "~/components/step-up";
import { WALLET_KEY_MESSAGES } from "~/lib/chain/wallet-messages";
import { watchedChainOf } from "~/lib/chain/wallets";
import { type IntentReply, refusalFor } from "~/lib/intent-reply";
import { PROPOSAL_MESSAGES } from "~/lib/proposals";
import { asksForCode } from "~/lib/step-up";
import { WALLET_MODAL_CLOSE_MS } from "~/lib/timers";
import { KeyAddresses } from "./key-addresses";
import { ReasonField } from "./reason-field";
import { useWalletValue } from "./use-wallet-value";

/**
 * The desk's Update Deposit Wallets button and modal: each wallet by type with its editable address (or, where
 * the chain is watched, the account's extended public key, with its first addresses shown as it is typed), and an
 * optional reason the second admin reads. A wallet whose change already waits for a second admin says so, with the
 * address proposed, and its field is not editable until that change is decided. A saved change shows in the
 * modal's banner and a toast, and the modal closes 1.5 s later.
 */
export function WalletsModal({ wallets, reply }: { wallets: DeskWallet[]; reply?: IntentReply }) {
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "wallets";
  // The last reply to a save, kept here: live updates revalidate the page, and a revalidation drops the action's
  // reply (or hands back an equal but new object) while the banner shows and the close timer runs.
  const incoming = reply?.intent === "wallets" ? reply : undefined;
  const [message, setMessage] = useState(incoming);
  // When the fields last went back to what the database holds: every reply but one asking for a second-factor
  // code, which keeps the addresses being typed so they go again with the code.
  const [resetAt, setResetAt] = useState(incoming?.at);
  // biome-ignore lint/correctness/useExhaustiveDependencies: one update per reply, identified by its stamp
  useEffect(() => {
    if (!incoming) return;
    setMessage(incoming);
    if (!asksForCode(incoming)) setResetAt(incoming.at);
  }, [incoming?.at]);

  const savedAt = message?.tone === "success" ? message.at : null;
  const savedText = message?.message;
  useEffect(() => {
    if (savedAt === null) return;
    if (savedText) toast.success(savedText);
    const timer = setTimeout(() => setOpen(false), WALLET_MODAL_CLOSE_MS);
    return () => clearTimeout(timer);
  }, [savedAt, savedText]);

  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover"
      >
        Update Deposit Wallets
      </button>
      <Modal open={open} title="Deposit Wallets" onClose={() => setOpen(false)}>
        {wallets.length === 0 ? (
          <p className="text-sm text-ink-muted">No deposit wallets found.</p>
        ) : (
          // Keyed by what the database holds: after a save (here or by another admin, through a live update) the
          // fields show the stored addresses, never what was typed before.
          <Form
            method="post"
            className="space-y-4"
            key={`${resetAt}:${wallets.map((w) => `${w.walletAddress}>${w.awaitingAddress ?? ""}`).join("|")}`}
          >
            {message && !saving ? <Banner tone={message.tone}>{message.message}</Banner> : null}
            {wallets.map((wallet) => (
              <WalletField key={wallet.id} wallet={wallet} reply={saving ? undefined : message} />
            ))}
            <FormErrors reply={refusalFor(message, "wallets")}>
              {/* The proposer's reason, optional: it goes with the proposal to the second admin (card and mail). */}
              <ReasonField hint="Optional. The admin who approves the change reads it." />
              <StepUpField />
            </FormErrors>
            <button
              type="submit"
              name="intent"
              value="wallets"
              disabled={saving}
              className="w-full rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover disabled:opacity-60"
            >
              {saving ? "Saving..." : "Save Changes"}
            </button>
          </Form>
        )}
      </Modal>
    </>
  );
}

type DeskWallet = { id: number; walletType: string; walletAddress: string; awaitingAddress: string | null };

/**
 * One wallet's address or key; an error about it (the reply's field `wallet-{id}`, or a key that does not read)
 * shows under it, and a key that reads shows its first addresses there instead. While a change of it waits for a
 * second admin, the value proposed shows under the label and the field is read-only (a disabled field is not
 * sent, so the save leaves this wallet alone).
 */
function WalletField({ wallet, reply }: { wallet: DeskWallet; reply?: IntentReply }) {
  const name = `wallet-${wallet.id}`;
  const [value, setValue] = useState(wallet.walletAddress);
  const read = useWalletValue(wallet.walletType, value);
  const serverError = reply?.tone === "error" && reply.field === name ? reply.message : undefined;
  const field = useFieldError(name, read?.kind === "refused" ? read.error : serverError, true);
  const awaitingId = `${name}-awaiting`;
  const previewId = `${name}-addresses`;
  return (
    <div>
      <label htmlFor={name} className="block text-sm font-medium">
        {wallet.walletType}
      </label>
      <p id={field.hintId} className="text-xs text-ink-muted">
        {watchedChainOf(wallet.walletType) ? WALLET_KEY_MESSAGES.takesKey : WALLET_KEY_MESSAGES.takesAddress}
      </p>
      {wallet.awaitingAddress ? (
        <p id={awaitingId} className="mt-1 text-xs text-pending [overflow-wrap:anywhere]">
          {`${PROPOSAL_MESSAGES.awaiting}: `}
          <span className="font-mono">{wallet.awaitingAddress}</span>
        </p>
      ) : null}
      {/* The address this form was rendered with: the save refuses to overwrite one that changed since. */}
      <input type="hidden" name={`was-${wallet.id}`} value={wallet.walletAddress} />
      <input
        id={name}
        name={name}
        defaultValue={wallet.walletAddress}
        onChange={(event) => setValue(event.currentTarget.value)}
        spellCheck={false}
        autoComplete="off"
        disabled={wallet.awaitingAddress !== null}
        {...field.controlProps}
        aria-describedby={
          [
            field.controlProps["aria-describedby"],
            wallet.awaitingAddress ? awaitingId : null,
            read?.kind === "key" ? previewId : null,
          ]
            .filter(Boolean)
            .join(" ") || undefined
        }
        className="mt-1 block w-full rounded-md border border-border bg-canvas px-3 py-2 font-mono text-sm disabled:cursor-not-allowed disabled:opacity-70"
      />
      {read?.kind === "key" ? <KeyAddresses id={previewId} addresses={read.addresses} /> : null}
      {field.errorText}
    </div>
  );
}
