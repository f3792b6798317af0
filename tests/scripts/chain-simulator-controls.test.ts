/**
 * The chain simulator's controls for the watcher's node checks and the chain bench: a bitcoin API that lags behind
 * its own tip, and a mempool filled with strangers' payments. Each test takes its own namespace.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import { type ChainSimulator, chainControl, startChainSimulator } from "../../scripts/lib/chain-simulator.ts";
import { readBlock } from "./bitcoin-bytes.ts";

const ADDRESS = "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx";

let simulator: ChainSimulator;
before(async () => {
  simulator = await startChainSimulator();
});
after(() => simulator.close());

describe("a bitcoin API behind its chain", () => {
  test("does not know the last blocks, reads their payments as unconfirmed, and knows them again at 0", async () => {
    const chain = chainControl(simulator.url, "behind");
    const get = (path: string) => fetch(`${chain.esploraUrl}${path}`);
    const paid = await chain.pay({ address: ADDRESS, amount: "0.001" });
    const { height, hashes } = await chain.mine(2);
    await chain.behind(2);
    assert.equal(await (await get("/blocks/tip/height")).text(), String(height - 2));
    assert.equal((await get(`/block-height/${height}`)).status, 404);
    assert.equal((await get(`/block/${hashes[0]}/raw`)).status, 404);
    assert.deepEqual(await (await get(`/tx/${paid.txid}/status`)).json(), { confirmed: false });
    assert.deepEqual((await chain.state()).behind, { bitcoin: 2, ethereum: 0 });
    await chain.behind(0);
    assert.equal(await (await get(`/block-height/${height}`)).text(), hashes[1]);
    assert.equal(((await (await get(`/tx/${paid.txid}/status`)).json()) as { confirmed: boolean }).confirmed, true);
    await assert.rejects(chain.behind(100_000), /blocks must be/);
  });
});

describe("an Ethereum node behind its chain", () => {
  test("answers null for the last blocks, leaves their logs out, reads their transactions as pending", async () => {
    const chain = chainControl(simulator.url, "behind-ethereum");
    const rpc = async (method: string, params: unknown[] = []) => {
      const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params });
      const answer = await fetch(chain.ethereumRpcUrl, { method: "POST", body });
      return ((await answer.json()) as { result: unknown }).result;
    };
    const paid = await chain.pay({ address: `0x${"22".repeat(20)}`, amount: "250", asset: "USDT" });
    const { height, hashes } = await chain.mine(1, "ethereum");
    await chain.behind(1, "ethereum");
    assert.equal(await rpc("eth_blockNumber"), `0x${(height - 1).toString(16)}`);
    assert.equal(await rpc("eth_getBlockByNumber", [`0x${height.toString(16)}`, true]), null);
    assert.equal(await rpc("eth_getBlockByHash", [hashes[0], false]), null);
    assert.deepEqual(await rpc("eth_getLogs", [{ fromBlock: `0x${height.toString(16)}`, toBlock: "latest" }]), []);
    assert.equal(((await rpc("eth_getTransactionByHash", [paid.txid])) as { blockNumber: unknown }).blockNumber, null);
    await chain.behind(0, "ethereum");
    assert.equal(
      ((await rpc("eth_getBlockByNumber", [`0x${height.toString(16)}`, false])) as { hash: string }).hash,
      hashes[0],
    );
  });
});

describe("strangers' payments", () => {
  test("fill the next block with as many transactions of two outputs each", async () => {
    const chain = chainControl(simulator.url, "traffic");
    assert.deepEqual(await chain.traffic(250), { mempool: 250 });
    const { hashes } = await chain.mine(1);
    const raw = Buffer.from(await (await fetch(`${chain.esploraUrl}/block/${hashes[0]}/raw`)).arrayBuffer());
    const block = readBlock(raw);
    assert.equal(block.txs.length, 251);
    assert.ok(block.txs.slice(1).every((tx) => tx.outputs.length === 2));
  });
});
