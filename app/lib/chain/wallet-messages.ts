/**
 * The words about a deposit wallet's key, apart from the derivation so that the pages showing them (the wallets
 * modal, the proposal card) do not carry the chain libraries for the words alone.
 */
import { networkOf } from "../wallet-address";

const NETWORK_NAMES: Record<string, string> = { tron: "Tron", solana: "Solana", litecoin: "Litecoin" };

export const WALLET_KEY_MESSAGES = {
  /** A key where no watcher reads the chain: clients could be given addresses whose payments nobody sees. */
  notWatched: (walletType: string) => {
    const network = NETWORK_NAMES[networkOf(walletType) ?? ""] ?? "this network";
    return `This wallet takes an address, not an extended public key: payments on ${network} are not watched`;
  },
  /** A Bitcoin key of the network this deployment does not watch (BITCOIN_NETWORK). */
  otherNetwork: (kind: string, watched: "mainnet" | "testnet") =>
    `This is a ${watched === "mainnet" ? "testnet" : "mainnet"} key (${kind}): this deployment watches Bitcoin ${watched}, which takes a ${watched === "mainnet" ? "zpub" : "vpub"}`,
  /** Over a key's first addresses, in the modal and on the second admin's card. */
  preview: "First addresses of this key — compare them with your wallet software before approving",
  /** The field's hint: what a wallet of a watched chain takes, and what the others take. */
  takesKey: "Address or extended public key",
  takesAddress: "Address",
} as const;
