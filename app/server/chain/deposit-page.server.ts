/**
 * What /deposit offers a client: their own address for each wallet watched on chain (given on first view), and the
 * claim form for the firm's other wallets. A claim form never offers a watched wallet, whose stored value is a key,
 * not an address; a claim naming one is refused on the server too (deposit-requests.server.ts).
 */
import { ASSET_NAMES } from "~/lib/chain/deposit-texts";
import { looksLikeExtendedKey } from "~/lib/chain/wallets";
import { qrPath } from "~/lib/qr";
import type { CommandContext } from "../command-context.server";
import { listDepositWallets } from "../ledger/reads.server";
import { depositAddressFor } from "./deposit-addresses.server";
import { chainSettings } from "./settings.server";
import { type WatchedWallet, watchedWallet } from "./watched-wallets.server";

type Context = Pick<CommandContext, "db" | "bindings">;

/**
 * The firm's wallets split: watched on chain, and those holding an address (claims). A wallet holding a key of a
 * chain this deployment does not read is neither: a key is never shown as an address to pay.
 */
export async function depositWalletsOf(context: Context) {
  const settings = chainSettings(context.bindings);
  const wallets = await listDepositWallets(context.db);
  const watched = wallets.flatMap((wallet) => watchedWallet(wallet, settings) ?? []);
  const claims = wallets.filter((wallet) => !looksLikeExtendedKey(wallet.walletAddress));
  return { watched, claims };
}

/** The claim wallets with their QR codes, for the deposit forms. */
export async function claimWalletViews(context: Context) {
  const { claims } = await depositWalletsOf(context);
  return claims.map((wallet) => ({ ...wallet, qr: qrPath(wallet.walletAddress) }));
}

/**
 * The client's own addresses, given now where they had none: one per key, naming the assets it takes. Wallets
 * holding one key (Ether and USDT on one Ethereum account) share the address, so it is shown once, for both.
 */
export async function ownDepositAddresses(context: Context, userId: string, now = Date.now()) {
  const { watched } = await depositWalletsOf(context);
  const byKey = new Map<string, WatchedWallet[]>();
  for (const wallet of watched) {
    const key = `${wallet.network}:${wallet.keyId}`;
    byKey.set(key, [...(byKey.get(key) ?? []), wallet]);
  }
  return Promise.all(
    [...byKey.values()].map(async (wallets) => {
      const [first] = wallets as [WatchedWallet, ...WatchedWallet[]];
      const address = await depositAddressFor(context.db, userId, first, now);
      return {
        assets: wallets.map((wallet) => ASSET_NAMES[wallet.asset]),
        address,
        qr: qrPath(address),
        confirmations: first.confirmations,
      };
    }),
  );
}
