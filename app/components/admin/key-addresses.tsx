import { WALLET_KEY_MESSAGES } from "~/lib/chain/wallet-messages";

/**
 * A wallet key's first addresses under the line that says what to do with them: the wallets modal shows them as
 * the admin types the key, the second admin's card from the stored key, so both compare the same addresses.
 */
export function KeyAddresses({ addresses, id }: { addresses: string[]; id?: string }) {
  return (
    <div id={id} data-testid="key-addresses" className="mt-1 text-xs">
      <p className="text-ink-muted">{WALLET_KEY_MESSAGES.preview}</p>
      <ol className="mt-1 list-decimal space-y-0.5 pl-5 font-mono [overflow-wrap:anywhere]">
        {addresses.map((address) => (
          <li key={address}>{address}</li>
        ))}
      </ol>
    </div>
  );
}
