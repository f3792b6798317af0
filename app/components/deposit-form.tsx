import { type ReactNode, useEffect, useState } from "react";
import { Form, useNavigation } from "react-router";
import { toast } from "sonner";
import { CopyButton } from "~/components/copy-button";
import { AmountField, Banner, Field, FormErrors, SelectField } from "~/components/form";
import { Modal } from "~/components/modal";
import { QrCode } from "~/components/qr-code";
import type { FormReply } from "~/lib/forms";
import { MONEY_MESSAGES } from "~/lib/schemas/money";

interface DepositWalletView {
  id: number;
  walletType: string;
  walletAddress: string;
  qr: { path: string; size: number };
}

/**
 * The deposit form shared by /deposit and /stocks/{symbol}/deposit: amount, the firm's wallets, the chosen
 * address with copy and QR code, and a submit button that stays disabled until a wallet is chosen. A refusal
 * from the action shows in the form's banner and under its field and, on these two forms only, also as a toast
 * (docs/decisions/0011).
 */
export function DepositForm({
  wallets,
  amount,
  idempotencyKey,
  reply,
  notice,
  lockedField,
  openQrOnChoice = false,
  disabled = false,
}: {
  wallets: DepositWalletView[];
  amount: string;
  idempotencyKey: string;
  /** The action's answer to the last submission, if any. */
  reply: FormReply;
  /** A state of the page shown in the banner when no refusal is (the stock deposit's unknown symbol). */
  notice?: string | null;
  /** Extra field shown above the wallet (the stock deposit's locked stock select). */
  lockedField?: ReactNode;
  /** The stock deposit opens the QR code as soon as a wallet is chosen (docs/product.md, "Screens"). */
  openQrOnChoice?: boolean;
  disabled?: boolean;
}) {
  const navigation = useNavigation();
  const [walletType, setWalletType] = useState("");
  const [qrOpen, setQrOpen] = useState(false);
  const wallet = wallets.find((w) => w.walletType === walletType);
  const submitting = navigation.state === "submitting";
  const error = reply?.error ?? notice;
  useEffect(() => {
    if (reply?.error) toast.error(reply.error);
  }, [reply]);

  return (
    <FormErrors reply={reply}>
      <Form method="post" className="mt-6 space-y-5 rounded-xl border border-border bg-surface p-6">
        {error ? <Banner tone="error">{error}</Banner> : null}
        {wallets.length === 0 ? <Banner tone="error">{MONEY_MESSAGES.noWallets}</Banner> : null}
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <AmountField defaultValue={amount} />
        {lockedField}
        <div>
          <SelectField
            label="Payment Wallet"
            name="walletType"
            value={walletType}
            onChange={(event) => {
              setWalletType(event.target.value);
              if (openQrOnChoice && event.target.value) setQrOpen(true);
            }}
            disabled={wallets.length === 0}
          >
            <option value="">Select a wallet</option>
            {wallets.map((w) => (
              <option key={w.id} value={w.walletType}>
                {w.walletType}
              </option>
            ))}
          </SelectField>
          {wallets.length === 0 ? <p className="mt-1 text-xs text-ink-muted">{MONEY_MESSAGES.noWalletsYet}</p> : null}
        </div>
        <div>
          <div className="flex items-end gap-2">
            <Field
              label="Wallet Address"
              name="walletAddressShown"
              value={wallet?.walletAddress ?? ""}
              placeholder="Choose a wallet to see its address"
              readOnly
              className="min-w-0 flex-1"
            />
            <CopyButton value={wallet?.walletAddress ?? ""} />
          </div>
          <button
            type="button"
            onClick={() => setQrOpen(true)}
            disabled={!wallet}
            className="mt-3 rounded-md border border-border px-3 py-2 text-sm font-medium hover:bg-surface-raised disabled:opacity-50"
          >
            Show QR Code
          </button>
        </div>
        <button
          type="submit"
          disabled={!wallet || submitting || disabled}
          className="w-full rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand-hover disabled:cursor-not-allowed disabled:opacity-60"
        >
          {submitting ? "Processing..." : "Submit Deposit"}
        </button>
      </Form>
      <Modal
        open={qrOpen && Boolean(wallet)}
        title={`${wallet?.walletType ?? ""} deposit address`}
        onClose={() => setQrOpen(false)}
      >
        {wallet ? (
          <div className="flex flex-col items-center gap-4">
            <QrCode path={wallet.qr.path} size={wallet.qr.size} label={`QR code of the ${wallet.walletType} address`} />
            <p className="text-center text-sm">
              Scan this QR code with your {wallet.walletType} wallet to send the deposit.
            </p>
            <p className="break-all text-center font-mono text-sm">{wallet.walletAddress}</p>
          </div>
        ) : null}
      </Modal>
    </FormErrors>
  );
}
