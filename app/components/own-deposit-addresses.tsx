import { CopyButton } from "~/components/copy-button";
import { QrCode } from "~/components/qr-code";
import { CHAIN_DEPOSIT_TEXTS } from "~/lib/chain/deposit-texts";

export interface OwnDepositAddressView {
  /** What the address takes (two where Ether and USDT share one Ethereum key). */
  assets: string[];
  address: string;
  qr: { path: string; size: number };
  confirmations: number;
}

/**
 * The client's own deposit address per key the firm watches, once however many assets it takes: the address with
 * Copy and its QR code, and how it is credited. A payment to it needs no request (docs/product.md, "Deposits on chain").
 */
export function OwnDepositAddresses({ addresses }: { addresses: OwnDepositAddressView[] }) {
  if (addresses.length === 0) return null;
  return (
    <div className="mt-6 space-y-4">
      {addresses.map((own) => {
        const names = own.assets.join(" and ");
        const title = CHAIN_DEPOSIT_TEXTS.ownAddressTitle(own.assets);
        const id = `own-address-${names.replace(/\W+/g, "-").toLowerCase()}`;
        return (
          <section
            key={names}
            aria-labelledby={`${id}-title`}
            data-testid="own-deposit-address"
            className="rounded-xl border border-border bg-surface p-6"
          >
            <h2 id={`${id}-title`} className="text-lg font-semibold">
              {title}
            </h2>
            <p className="mt-1 text-sm text-ink-muted">
              {CHAIN_DEPOSIT_TEXTS.ownAddressNote(own.assets, own.confirmations)}
            </p>
            <div className="mt-4 flex flex-col items-center gap-4 sm:flex-row sm:items-start">
              <QrCode path={own.qr.path} size={own.qr.size} label={`QR code of your ${names} address`} pixels={160} />
              <div className="w-full min-w-0 flex-1">
                <p className="text-sm font-medium" id={`${id}-label`}>
                  Address
                </p>
                <div className="mt-1 flex items-start gap-2">
                  <output
                    aria-labelledby={`${id}-label`}
                    data-testid="own-address"
                    className="min-w-0 flex-1 break-all rounded-md border border-border bg-surface-raised px-3 py-2 font-mono text-sm"
                  >
                    {own.address}
                  </output>
                  <CopyButton value={own.address} label={`your ${names} address`} />
                </div>
              </div>
            </div>
          </section>
        );
      })}
    </div>
  );
}
