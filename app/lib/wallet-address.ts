/**
 * Wallet address formats per network: a typo in an address loses money, so both the firm's
 * deposit addresses and clients' withdrawal addresses are checked before they are stored. Bech32
 * addresses (bc1…, ltc1…) are checked down to their checksum; the others by alphabet and length.
 */
export type Network = "bitcoin" | "ethereum" | "tron" | "solana" | "litecoin";

/** The cryptocurrencies a client can withdraw to (docs/product.md, "Constants"). */
export const WITHDRAWAL_CURRENCIES = ["BTC", "ETH", "USDT (ERC)", "USDT (TRC)", "SOLANA", "LITECOIN", "TRON"] as const;

/** The network of a currency or deposit wallet type ("USDT (TRC20)" is on Tron), or null when unknown. */
export function networkOf(currencyOrWalletType: string): Network | null {
  const name = currencyOrWalletType.toUpperCase();
  if (name.includes("TRC") || name.includes("TRON") || name === "TRX") return "tron";
  if (name.includes("ERC") || name.includes("ETH")) return "ethereum";
  if (name.includes("SOL")) return "solana";
  if (name.includes("LITECOIN") || name.includes("LTC")) return "litecoin";
  if (name.includes("BTC") || name.includes("BITCOIN")) return "bitcoin";
  return null;
}

const BASE58 = "[1-9A-HJ-NP-Za-km-z]";
const BECH32_CHARSET = "qpzry9x8gf2tvdw0s3jn54khce6mua7l";
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;

function polymod(values: number[]): number {
  const generators = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let checksum = 1;
  for (const value of values) {
    const top = checksum >>> 25;
    checksum = ((checksum & 0x1ffffff) << 5) ^ value;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) checksum ^= generators[i] ?? 0;
  }
  return checksum >>> 0;
}

/** A segwit address of the given human-readable part ("bc", "ltc") with a valid bech32/bech32m checksum. */
function isSegwitAddress(address: string, hrp: string): boolean {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false;
  const lower = address.toLowerCase();
  if (!lower.startsWith(`${hrp}1`) || lower.length < 14 || lower.length > 74) return false;
  const data: number[] = [];
  for (const char of lower.slice(hrp.length + 1)) {
    const value = BECH32_CHARSET.indexOf(char);
    if (value === -1) return false;
    data.push(value);
  }
  if (data.length < 7) return false;
  const expanded = [...hrp]
    .map((c) => c.charCodeAt(0) >> 5)
    .concat(
      0,
      [...hrp].map((c) => c.charCodeAt(0) & 31),
    );
  const check = polymod(expanded.concat(data));
  const version = data[0];
  return (version === 0 && check === BECH32_CONST) || (version !== 0 && check === BECH32M_CONST);
}

/** Which Bitcoin a deployment pays on: mainnet (bc1…, 1…, 3…) or testnet (tb1…, m…, n…, 2…), as it watches. */
export type BitcoinNetwork = "mainnet" | "testnet";

const FORMATS: Record<Network, (address: string, bitcoin: BitcoinNetwork) => boolean> = {
  bitcoin: (a, bitcoin) =>
    bitcoin === "testnet"
      ? isSegwitAddress(a, "tb") || new RegExp(`^[mn2]${BASE58}{25,34}$`).test(a)
      : isSegwitAddress(a, "bc") || new RegExp(`^[13]${BASE58}{25,34}$`).test(a),
  litecoin: (a) => isSegwitAddress(a, "ltc") || new RegExp(`^[LM3]${BASE58}{25,33}$`).test(a),
  ethereum: (a) => /^0x[0-9a-fA-F]{40}$/.test(a),
  tron: (a) => new RegExp(`^T${BASE58}{33}$`).test(a),
  solana: (a) => new RegExp(`^${BASE58}{32,44}$`).test(a),
};

/**
 * Whether the address has the format of the currency's (or wallet type's) network; a Bitcoin address of the
 * deployment's network (a testnet deployment, and local runs, pay testnet addresses).
 */
export function isValidAddress(currencyOrWalletType: string, address: string, bitcoin: BitcoinNetwork = "mainnet") {
  const trimmed = address.trim();
  const network = networkOf(currencyOrWalletType);
  if (!network) return /^[A-Za-z0-9]{20,120}$/.test(trimmed);
  return FORMATS[network](trimmed, bitcoin);
}

export const invalidAddressMessage = (currencyOrWalletType: string) =>
  `Please enter a valid ${currencyOrWalletType} wallet address`;
