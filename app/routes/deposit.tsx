import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/cloudflare";
import { data } from "@remix-run/cloudflare";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { toast } from "sonner";
import { CopyButton } from "~/components/copy-button";
import { Banner, Field, SelectField } from "~/components/form";
import { Modal } from "~/components/modal";
import { QrCode } from "~/components/qr-code";
import { parseAmountToCents } from "~/lib/ledger";
import { qrPath } from "~/lib/qr";
import { idempotencyKeyOf, MONEY_MESSAGES, parseDepositForm } from "~/lib/schemas/money";
import { listDepositWallets, moneyRequester, requestDeposit } from "~/server/ledger.server";
import { deliverInBackground } from "~/server/mail/outbox.server";
import { requireClient } from "~/server/session.server";
import { redirectWithToast } from "~/server/toast.server";

export const meta: MetaFunction = () => [{ title: "Make a Deposit" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireClient(request, context);
  const wallets = await listDepositWallets(context.db);
  const prefill = parseAmountToCents(new URL(request.url).searchParams.get("amount") ?? "");
  return {
    wallets: wallets.map((wallet) => ({ ...wallet, qr: qrPath(wallet.walletAddress) })),
    amount: prefill === null ? "" : (prefill / 100).toFixed(2),
    // A fresh key per rendered form: a double click or a retried request creates one deposit, not two.
    idempotencyKey: crypto.randomUUID(),
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const requester = await moneyRequester(request, context);
  if (!requester.ok) return data({ error: requester.error }, { status: requester.status });
  const user = requester.client;

  const form = await request.formData();
  const wallets = await listDepositWallets(context.db);
  const parsed = parseDepositForm(form, wallets);
  if (!parsed.ok) return data({ error: parsed.error }, { status: 400 });
  const idempotencyKey = idempotencyKeyOf(form);
  if (!idempotencyKey) return data({ error: "This form has expired. Please reload the page." }, { status: 400 });

  const result = await requestDeposit(context.db, context.env, user, {
    amountCents: parsed.data.amountCents,
    walletType: parsed.data.wallet.walletType,
    walletAddress: parsed.data.wallet.walletAddress,
    idempotencyKey,
  });
  if (!result.ok) return data({ error: result.error }, { status: 409 });
  deliverInBackground(context.ctx, context.db, context.env, result.emailIds);
  return redirectWithToast(context.env, "/dashboard", {
    type: "success",
    description: MONEY_MESSAGES.depositSubmitted,
  });
}

export default function Deposit() {
  const { wallets, amount, idempotencyKey } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [walletType, setWalletType] = useState("");
  const [qrOpen, setQrOpen] = useState(false);
  const wallet = wallets.find((w) => w.walletType === walletType);
  const submitting = navigation.state === "submitting";

  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error);
  }, [actionData]);

  return (
    <section className="mx-auto max-w-xl">
      <h1 className="text-3xl font-bold">Make a Deposit</h1>
      <Form method="post" className="mt-6 space-y-5 rounded-xl border border-border bg-surface p-6">
        {actionData?.error ? <Banner tone="error">{actionData.error}</Banner> : null}
        {wallets.length === 0 ? <Banner tone="error">{MONEY_MESSAGES.noWallets}</Banner> : null}
        <input type="hidden" name="idempotencyKey" value={idempotencyKey} />
        <Field
          label="Amount (USD)"
          name="amount"
          type="number"
          inputMode="decimal"
          step="0.01"
          min="0.01"
          defaultValue={amount}
          required
        />
        <div>
          <SelectField
            label="Payment Wallet"
            name="walletType"
            value={walletType}
            onChange={(event) => setWalletType(event.target.value)}
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
          disabled={!wallet || submitting}
          className="w-full rounded-md bg-brand-strong px-4 py-2 font-semibold text-white hover:bg-brand disabled:cursor-not-allowed disabled:opacity-60"
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
            <p className="break-all text-center font-mono text-sm">{wallet.walletAddress}</p>
          </div>
        ) : null}
      </Modal>
    </section>
  );
}
