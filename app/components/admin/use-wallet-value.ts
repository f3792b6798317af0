import { useEffect, useState } from "react";
import type { WalletValue } from "~/lib/chain/wallet-value";
import { looksLikeExtendedKey } from "~/lib/chain/wallets";

/**
 * A wallet field's value read as the admin types: a key's first addresses or its refusal, null for an address
 * (the server checks addresses). The chain libraries load only once a key is typed: the desk's other visitors and
 * the admins who only change addresses never fetch them.
 */
export function useWalletValue(walletType: string, value: string): Exclude<WalletValue, { kind: "address" }> | null {
  const [read, setRead] = useState<{ value: string; result: WalletValue } | null>(null);
  const isKey = looksLikeExtendedKey(value);
  useEffect(() => {
    if (!isKey) return;
    let current = true;
    import("~/lib/chain/wallet-value").then(
      ({ readWalletValue }) => {
        if (current) setRead({ value, result: readWalletValue(walletType, value) });
      },
      // A chunk that fails to load (a deploy in between) leaves the preview out; the server still checks the key.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [isKey, walletType, value]);
  // Only the reading of what the field holds now: a slower reading of an earlier value is never shown.
  if (!isKey || read?.value !== value || read.result.kind === "address") return null;
  return read.result;
}
