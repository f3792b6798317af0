/**
 * The chain simulator (scripts/lib/chain-simulator.ts): its bitcoin chain read through Esplora's API (raw blocks
 * parsed apart, tests/scripts/bitcoin-bytes.ts), rates, outages, namespaces, the control API's refusals and
 * `npm run chain`. Ethereum's JSON-RPC: chain-simulator-ethereum.test.ts. Each test takes its own namespace.
 */
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { promisify } from "node:util";
import {
  type ChainSimulator,
  chainControl,
  chainSimulatorPort,
  chainSimulatorVars,
  startChainSimulator,
} from "../../scripts/lib/chain-simulator.ts";
import { BIN, ROOT } from "../../scripts/lib/local-d1.ts";
import { readBlock } from "./bitcoin-bytes.ts";

const ADDRESS = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";
const PROGRAM = "751e76e8199196d454941c45d1b3a323f1433bd6";

interface EsploraStatus {
  confirmed: boolean;
  block_height?: number;
  block_hash?: string;
  block_time?: number;
}
interface EsploraTx {
  txid: string;
  fee: number;
  vin: Array<{ txid: string; vout: number }>;
  vout: Array<{ scriptpubkey: string; scriptpubkey_address: string; scriptpubkey_type: string; value: number }>;
  status: EsploraStatus;
}
interface EsploraBlock {
  id: string;
  height: number;
  previousblockhash: string;
  timestamp: number;
  tx_count: number;
}
type Prices = Record<string, { usd: number; last_updated_at?: number }>;

let simulator: ChainSimulator;
before(async () => {
  simulator = await startChainSimulator();
});
after(() => simulator.close());

/** A world of its own for one test, with reads of its Esplora API. */
function world(ns: string) {
  const chain = chainControl(simulator.url, ns);
  const get = (path: string) => fetch(`${chain.esploraUrl}${path}`);
  const read = async (path: string) => (await get(path)).text();
  const readJson = async <T>(path: string) => (await (await get(path)).json()) as T;
  const rawBlock = async (hash: string) =>
    readBlock(Buffer.from(await (await get(`/block/${hash}/raw`)).arrayBuffer()));
  return { chain, get, read, readJson, rawBlock };
}

describe("bitcoin through Esplora's API", () => {
  test("starts at height 100 with a chain of linked blocks", async () => {
    const { get, read, readJson, rawBlock } = world("btc-start");
    assert.equal(await read("/blocks/tip/height"), "100");
    const tip = await read("/blocks/tip/hash");
    assert.match(tip, /^[0-9a-f]{64}$/);
    assert.equal(await read("/block-height/100"), tip);
    const block = await readJson<EsploraBlock>(`/block/${tip}`);
    assert.deepEqual(
      { id: block.id, height: block.height, previous: block.previousblockhash, txs: block.tx_count },
      { id: tip, height: 100, previous: await read("/block-height/99"), txs: 1 },
    );
    assert.equal(typeof block.timestamp, "number");
    const raw = await rawBlock(tip);
    assert.equal(raw.hash, tip);
    assert.equal(raw.previousHash, block.previousblockhash);
    assert.equal(raw.timestamp, block.timestamp);
    assert.deepEqual(raw.txs[0]?.inputs, [{ txid: "0".repeat(64), vout: 0xffffffff }]);
    const past = await get("/block-height/101");
    assert.deepEqual([past.status, await past.text()], [404, "Block not found"]);
    assert.equal((await get(`/block/${"ab".repeat(32)}`)).status, 404);
  });

  test("a payment waits in the mempool, then sits in a mined block's bytes at its vout", async () => {
    const { chain, get, read, readJson, rawBlock } = world("btc-pay");
    const paid = await chain.pay({ address: ADDRESS, amount: "0.01" });
    assert.deepEqual(Object.keys(paid).sort(), ["asset", "network", "outputIndex", "txid"]);
    assert.equal(paid.network, "bitcoin");
    assert.equal(paid.asset, "BTC");
    const mempool = await readJson<EsploraTx[]>(`/address/${ADDRESS}/txs/mempool`);
    assert.equal(mempool.length, 1);
    const [tx] = mempool as [EsploraTx];
    assert.equal(tx.txid, paid.txid);
    assert.deepEqual(tx.status, { confirmed: false });
    assert.equal(tx.fee, 1000);
    assert.deepEqual(tx.vout[paid.outputIndex], {
      scriptpubkey: `0014${PROGRAM}`,
      scriptpubkey_address: ADDRESS,
      scriptpubkey_type: "v0_p2wpkh",
      value: 1_000_000,
    });
    assert.deepEqual(await readJson<EsploraStatus>(`/tx/${paid.txid}/status`), { confirmed: false });

    const { height, hashes } = await chain.mine(2);
    assert.equal(height, 102);
    assert.equal(await read("/blocks/tip/hash"), hashes[1]);
    assert.deepEqual(await readJson<EsploraTx[]>(`/address/${ADDRESS}/txs/mempool`), []);
    const status = await readJson<EsploraStatus>(`/tx/${paid.txid}/status`);
    assert.deepEqual(
      { ...status, block_time: undefined },
      { confirmed: true, block_height: 101, block_hash: hashes[0], block_time: undefined },
    );
    assert.deepEqual((await readJson<EsploraTx>(`/tx/${paid.txid}`)).status, status);

    const block = await rawBlock(hashes[0] as string);
    assert.equal(block.hash, hashes[0]);
    assert.equal(block.previousHash, await read("/block-height/100"));
    assert.equal((await rawBlock(hashes[1] as string)).previousHash, hashes[0]);
    assert.equal(block.txs.length, 2);
    const [coinbase, payment] = block.txs;
    assert.equal(coinbase?.hasWitness, false);
    assert.equal(coinbase?.inputs[0]?.txid, "0".repeat(64));
    assert.equal(payment?.hasWitness, true);
    assert.equal(payment?.txid, paid.txid);
    assert.deepEqual(payment?.outputs[paid.outputIndex], { value: 1_000_000n, script: `0014${PROGRAM}` });
    assert.equal(payment?.outputs.length, 2);
    assert.equal((await get(`/tx/${"cd".repeat(32)}`)).status, 404);
    assert.equal(await (await get(`/tx/${"cd".repeat(32)}/status`)).text(), "Transaction not found");
    assert.equal((await get("/address/not-an-address/txs/mempool")).status, 400);
  });

  test("a reorg gives the last blocks new hashes, its payments back to the mempool or dropped", async () => {
    const { chain, get, read, readJson } = world("btc-reorg");
    const kept = await chain.pay({ address: ADDRESS, amount: "0.5" });
    const { hashes } = await chain.mine(2);
    assert.deepEqual(await chain.reorg(2), { height: 102 });
    assert.notEqual(await read("/block-height/101"), hashes[0]);
    assert.notEqual(await read("/block-height/102"), hashes[1]);
    assert.equal(
      (await readJson<EsploraBlock>(`/block/${await read("/block-height/102")}`)).previousblockhash,
      await read("/block-height/101"),
    );
    assert.equal((await get(`/block/${hashes[0]}`)).status, 404);
    assert.deepEqual(await readJson<EsploraStatus>(`/tx/${kept.txid}/status`), { confirmed: false });
    assert.equal((await readJson<EsploraTx[]>(`/address/${ADDRESS}/txs/mempool`))[0]?.txid, kept.txid);
    const { hashes: again } = await chain.mine(1);
    assert.equal((await readJson<EsploraStatus>(`/tx/${kept.txid}/status`)).block_hash, again[0]);

    const dropped = await chain.pay({ address: ADDRESS, amount: "0.2" });
    await chain.mine(1);
    await chain.reorg(1, { drop: true });
    const gone = await get(`/tx/${dropped.txid}`);
    assert.deepEqual([gone.status, await gone.text()], [404, "Transaction not found"]);
    assert.equal((await readJson<EsploraStatus>(`/tx/${kept.txid}/status`)).confirmed, true);
  });

  test("replace-by-fee: the same input spent again to another address, the old txid gone", async () => {
    const { chain, get, readJson } = world("btc-replace");
    const paid = await chain.pay({ address: ADDRESS, amount: "0.03", fee: "0.00002" });
    const before = await readJson<EsploraTx>(`/tx/${paid.txid}`);
    assert.equal(before.fee, 2000);
    const { txid } = await chain.replace(paid.txid);
    assert.notEqual(txid, paid.txid);
    assert.equal((await get(`/tx/${paid.txid}`)).status, 404);
    assert.deepEqual(await readJson<EsploraTx[]>(`/address/${ADDRESS}/txs/mempool`), []);
    const replacement = await readJson<EsploraTx>(`/tx/${txid}`);
    assert.deepEqual(replacement.vin[0]?.txid, before.vin[0]?.txid);
    assert.ok(replacement.fee > before.fee);
    assert.ok(replacement.vout.every((output) => output.scriptpubkey_address !== ADDRESS));
    await chain.mine(1);
    await assert.rejects(chain.replace(txid), /only a mempool tx can be replaced/);
  });
});

describe("rates, outages, namespaces", () => {
  const PRICE = "/api/v3/simple/price?ids=bitcoin,ethereum,tether&vs_currencies=usd&include_last_updated_at=true";

  test("rates in CoinGecko's shape, and a rate set with or without its time", async () => {
    const chain = chainControl(simulator.url, "rates");
    const now = Math.floor(Date.now() / 1000);
    const prices = (await (await fetch(`${chain.ratesUrl}${PRICE}`)).json()) as Prices;
    assert.deepEqual(Object.keys(prices), ["bitcoin", "ethereum", "tether"]);
    assert.deepEqual([prices.bitcoin?.usd, prices.ethereum?.usd, prices.tether?.usd], [65000, 3200, 1]);
    assert.ok(Math.abs((prices.bitcoin?.last_updated_at ?? 0) - now) <= 2);
    await chain.rate("BTC", 70_123.5, 1_700_000_000);
    await chain.rate("ETH", 2_500);
    const changed = (await (await fetch(`${chain.ratesUrl}${PRICE}`)).json()) as Prices;
    assert.deepEqual(changed.bitcoin, { usd: 70_123.5, last_updated_at: 1_700_000_000 });
    assert.equal(changed.ethereum?.usd, 2_500);
    const plain = await (await fetch(`${chain.ratesUrl}/api/v3/simple/price?ids=tether&vs_currencies=usd`)).json();
    assert.deepEqual(plain, { tether: { usd: 1 } });
  });

  test("an outage answers 503 to every read of that API until it ends", async () => {
    const chain = chainControl(simulator.url, "outage");
    const reads = {
      bitcoin: () => fetch(`${chain.esploraUrl}/blocks/tip/height`),
      ethereum: () =>
        fetch(chain.ethereumRpcUrl, { method: "POST", body: '{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber"}' }),
      rates: () => fetch(`${chain.ratesUrl}${PRICE}`),
    };
    for (const [network, read] of Object.entries(reads) as Array<[keyof typeof reads, () => Promise<Response>]>) {
      await chain.outage(network, true);
      assert.equal((await read()).status, 503, network);
      await chain.pay({ address: ADDRESS, amount: "0.001" });
      assert.deepEqual((await chain.state()).outages, [network]);
      await chain.outage(network, false);
      assert.equal((await read()).status, 200, network);
    }
  });

  test("each namespace is a world of its own; a path without one is refused", async () => {
    const first = world("world-a");
    const second = world("world-b");
    await first.chain.pay({ address: ADDRESS, amount: "1" });
    await first.chain.mine(3);
    await first.chain.rate("BTC", 1);
    assert.equal(await first.read("/blocks/tip/height"), "103");
    assert.equal(await second.read("/blocks/tip/height"), "100");
    assert.deepEqual((await second.chain.state()).rates.BTC, { usd: 65000 });
    assert.equal((await fetch(`${simulator.url}/Not_A_Name/bitcoin/api/blocks/tip/height`)).status, 404);
  });

  test("the control API refuses what it cannot do, with a reason", async () => {
    const chain = chainControl(simulator.url, "refusals");
    await assert.rejects(chain.pay({ address: "0xabc", amount: "1" }), /not an Ethereum address/);
    await assert.rejects(chain.pay({ address: ADDRESS, amount: "0.000000001" }), /at most 8 decimals/);
    await assert.rejects(chain.pay({ address: "tb1qnotbech32", amount: "1" }), /not a v0 P2WPKH address/);
    await assert.rejects(chain.pay({ address: "abc", amount: "1" }), /give asset/);
    await assert.rejects(chain.reorg(500), /at most 100 blocks deep/);
    const unknown = await fetch(`${simulator.url}/refusals/control/explode`, { method: "POST", body: "{}" });
    assert.equal(unknown.status, 400);
    assert.match(((await unknown.json()) as { error: string }).error, /unknown command/);
  });
});

describe("npm run chain and npm run dev's settings", () => {
  test("pays and mines through the dev world of a running simulator", async () => {
    const port = new URL(simulator.url).port;
    const chain = (...args: string[]) =>
      promisify(execFile)(join(BIN, "node"), ["scripts/chain.ts", ...args], {
        cwd: ROOT,
        env: { ...process.env, CHAIN_SIMULATOR_PORT: port },
      });
    const paid = (await chain("pay", ADDRESS, "0.01")).stdout;
    const txid = /: ([0-9a-f]{64}) \(output \d\)/.exec(paid)?.[1];
    assert.ok(txid, paid);
    assert.match((await chain("mine", "2")).stdout, /^Mined 2 bitcoin block\(s\): height 102, tip [0-9a-f]{64}\.$/m);
    const status = (await (await fetch(`${simulator.url}/dev/bitcoin/api/tx/${txid}/status`)).json()) as EsploraStatus;
    assert.equal(status.block_height, 101);
    await assert.rejects(chain("mine", "--network", "dogecoin"), /network must be one of bitcoin, ethereum/);
    await assert.rejects(
      promisify(execFile)(join(BIN, "node"), ["scripts/chain.ts", "state"], {
        cwd: ROOT,
        env: { ...process.env, CHAIN_SIMULATOR_PORT: "1" },
      }),
      /No chain simulator answers on http:\/\/127\.0\.0\.1:1\b/,
    );
  });

  test("runs on PORT + 2000 or CHAIN_SIMULATOR_PORT, and points the Worker at the dev world (quotes too)", () => {
    assert.equal(chainSimulatorPort({}), 10787);
    assert.equal(chainSimulatorPort({ PORT: "8917" }), 10917);
    assert.equal(chainSimulatorPort({ PORT: "8917", CHAIN_SIMULATOR_PORT: "9555" }), 9555);
    assert.throws(() => chainSimulatorPort({ PORT: "65000" }), /set CHAIN_SIMULATOR_PORT/);
    assert.deepEqual(chainSimulatorVars("http://127.0.0.1:10787"), {
      BITCOIN_ESPLORA_URL: "http://127.0.0.1:10787/dev/bitcoin/api",
      ETHEREUM_RPC_URL: "http://127.0.0.1:10787/dev/ethereum",
      RATES_URL: "http://127.0.0.1:10787/dev/rates",
      USDT_ERC20_CONTRACT: "0x7169d38820dfd117c3fa1f22a697dba58d90ba06",
      BITCOIN_NETWORK: "testnet",
      ETHEREUM_CHAIN_ID: "11155111",
      BITCOIN_EXPLORER_URL: "http://127.0.0.1:10787/dev/explorer/bitcoin",
      ETHEREUM_EXPLORER_URL: "http://127.0.0.1:10787/dev/explorer/ethereum",
      QUOTES_URL: "http://127.0.0.1:10787/dev/quotes",
      QUOTES_KEY_ID: "local-quotes",
      QUOTES_SECRET_KEY: "local-quotes-secret",
    });
  });
});
