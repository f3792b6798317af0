/**
 * Which of the firm's deposit wallets are watched on chain: those holding an account key of a chain whose API is
 * configured (and, for Bitcoin, of the configured network). Every other wallet stays on the claim flow.
 */
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import type { AccountKey } from "~/lib/chain/addresses";
import { type WatchedChain, walletAccountKey, watchedChainOf } from "~/lib/chain/wallets";
import type { ChainAsset, ChainNetworkName } from "../../../db/enums";
import type { ChainSettings } from "./settings.server";

export interface WatchedWallet {
  walletType: string;
  chain: WatchedChain;
  network: ChainNetworkName;
  asset: ChainAsset;
  account: AccountKey;
  /** The key's short name in deposit_addresses: the first 16 hex digits of the SHA-256 of its text. */
  keyId: string;
  confirmations: number;
}

const ASSET_OF: Record<WatchedChain, ChainAsset> = { bitcoin: "BTC", ethereum: "ETH", usdt_erc20: "USDT_ERC20" };

export const keyIdOf = (keyText: string) =>
  encodeHexLowerCase(sha256(new TextEncoder().encode(keyText.trim()))).slice(0, 16);

export function watchedWallet(
  wallet: { walletType: string; walletAddress: string },
  settings: ChainSettings,
): WatchedWallet | null {
  const chain = watchedChainOf(wallet.walletType);
  const account = walletAccountKey(wallet.walletType, wallet.walletAddress);
  if (!chain || !account) return null;
  const base = {
    walletType: wallet.walletType,
    chain,
    asset: ASSET_OF[chain],
    account,
    keyId: keyIdOf(wallet.walletAddress),
  };
  if (chain === "bitcoin") {
    const { esploraUrl, network, confirmations } = settings.bitcoin;
    return esploraUrl && account.network === network ? { ...base, network: "bitcoin", confirmations } : null;
  }
  const { rpcUrl, confirmations } = settings.ethereum;
  return rpcUrl ? { ...base, network: "ethereum", confirmations } : null;
}

export function watchedWallets(
  wallets: ReadonlyArray<{ walletType: string; walletAddress: string }>,
  settings: ChainSettings,
): WatchedWallet[] {
  return wallets.flatMap((wallet) => watchedWallet(wallet, settings) ?? []);
}
