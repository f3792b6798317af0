/**
 * The chain simulator's Ethereum JSON-RPC (scripts/lib/chain-simulator/ethereum-rpc.ts): ether payments in blocks,
 * USDT payments as Transfer logs, eth_getLogs' range and topic filters, receipts, reorgs and JSON-RPC's errors.
 * Each test takes its own namespace.
 */
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import {
  type ChainSimulator,
  chainControl,
  startChainSimulator,
  USDT_CONTRACT,
} from "../../scripts/lib/chain-simulator.ts";

const TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
const ALICE = "0x1111111111111111111111111111111111111111";
const BOB = "0x2222222222222222222222222222222222222222";
const padded = (address: string) => `0x${address.slice(2).padStart(64, "0")}`;

interface Tx {
  hash: string;
  from: string;
  to: string;
  value: string;
  blockNumber: string | null;
  blockHash: string | null;
  transactionIndex: string | null;
}
interface Block {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  transactions: Tx[];
}
interface Log {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex: string;
  removed: boolean;
}
interface Receipt {
  status: string;
  gasUsed: string;
  effectiveGasPrice: string;
  blockNumber: string;
  blockHash: string;
  logs: Log[];
}
/** What each method answers; a null (past the tip, unknown) is compared as it is. */
interface Results {
  eth_chainId: string;
  eth_blockNumber: string;
  eth_getBlockByNumber: Block;
  eth_getLogs: Log[];
  eth_getTransactionByHash: Tx;
  eth_getTransactionReceipt: Receipt;
}
interface RpcAnswer {
  jsonrpc: string;
  id: number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

let simulator: ChainSimulator;
before(async () => {
  simulator = await startChainSimulator();
});
after(() => simulator.close());

function world(ns: string) {
  const chain = chainControl(simulator.url, ns);
  let id = 0;
  const rpc = async <M extends keyof Results>(method: M, ...params: unknown[]): Promise<Results[M]> => {
    const response = await fetch(chain.ethereumRpcUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    });
    const body = (await response.json()) as RpcAnswer;
    if (body.error) throw new Error(`${body.error.code} ${body.error.message}`);
    return body.result as Results[M];
  };
  return { chain, rpc };
}

describe("Ethereum through JSON-RPC", () => {
  test("starts at block 1000 on Sepolia's chain id, blocks linked, null past the tip", async () => {
    const { rpc } = world("eth-start");
    assert.equal(await rpc("eth_chainId"), "0xaa36a7");
    assert.equal(await rpc("eth_blockNumber"), "0x3e8");
    const latest = await rpc("eth_getBlockByNumber", "latest", true);
    assert.equal(latest.number, "0x3e8");
    assert.match(latest.hash, /^0x[0-9a-f]{64}$/);
    assert.deepEqual(latest.transactions, []);
    assert.equal(latest.parentHash, (await rpc("eth_getBlockByNumber", "0x3e7", true)).hash);
    assert.equal(typeof Number(latest.timestamp), "number");
    assert.equal(await rpc("eth_getBlockByNumber", "0x3e9", true), null);
  });

  test("an ether payment is pending, then in the next block with its value in wei and a receipt", async () => {
    const { chain, rpc } = world("eth-pay");
    const paid = await chain.pay({ address: ALICE, amount: "1.5" });
    assert.deepEqual(
      { ...paid, txid: undefined },
      { txid: undefined, network: "ethereum", asset: "ETH", outputIndex: 0 },
    );
    const pending = await rpc("eth_getTransactionByHash", paid.txid);
    assert.deepEqual([pending.blockNumber, pending.blockHash, pending.transactionIndex], [null, null, null]);
    assert.equal(await rpc("eth_getTransactionReceipt", paid.txid), null);
    assert.deepEqual((await rpc("eth_getBlockByNumber", "latest", true)).transactions, []);

    const { height, hashes } = await chain.mine(2, "ethereum");
    assert.equal(height, 1002);
    const block = await rpc("eth_getBlockByNumber", "0x3e9", true);
    assert.equal(block.hash, hashes[0]);
    assert.equal(block.transactions.length, 1);
    const [tx] = block.transactions as [Tx];
    assert.deepEqual(
      {
        hash: tx.hash,
        to: tx.to,
        value: tx.value,
        blockNumber: tx.blockNumber,
        blockHash: tx.blockHash,
        index: tx.transactionIndex,
      },
      {
        hash: paid.txid,
        to: ALICE,
        value: "0x14d1120d7b160000",
        blockNumber: "0x3e9",
        blockHash: hashes[0],
        index: "0x0",
      },
    );
    assert.match(tx.from, /^0x[0-9a-f]{40}$/);
    assert.deepEqual(await rpc("eth_getTransactionByHash", paid.txid), tx);
    const receipt = await rpc("eth_getTransactionReceipt", paid.txid);
    assert.deepEqual(
      [receipt.status, receipt.gasUsed, receipt.blockNumber, receipt.blockHash, receipt.logs],
      ["0x1", "0x5208", "0x3e9", hashes[0], []],
    );
    assert.match(receipt.effectiveGasPrice, /^0x[0-9a-f]+$/);
  });

  test("USDT payments are Transfer logs of the contract, found by range, address and topics", async () => {
    const { chain, rpc } = world("eth-usdt");
    const toAlice = await chain.pay({ address: ALICE, amount: "250", asset: "USDT" });
    const ether = await chain.pay({ address: BOB, amount: "0.1" });
    const toBob = await chain.pay({ address: BOB, amount: "0.5", asset: "USDT" });
    assert.deepEqual([toAlice.outputIndex, ether.outputIndex, toBob.outputIndex], [0, 0, 1]);
    assert.deepEqual(await rpc("eth_getLogs", { fromBlock: "0x0", toBlock: "latest", address: USDT_CONTRACT }), []);
    await chain.mine(1, "ethereum");
    await chain.pay({ address: ALICE, amount: "7", asset: "USDT" });
    await chain.mine(1, "ethereum");

    const all = await rpc("eth_getLogs", {
      fromBlock: "0x3e9",
      toBlock: "latest",
      address: USDT_CONTRACT,
      topics: [TRANSFER],
    });
    assert.equal(all.length, 3);
    const [alice, bob] = all as [Log, Log, Log];
    assert.deepEqual(
      { ...alice, topics: [alice.topics[0], alice.topics[2]] },
      {
        address: USDT_CONTRACT,
        topics: [TRANSFER, padded(ALICE)],
        data: `0x${(250_000_000).toString(16).padStart(64, "0")}`,
        blockNumber: "0x3e9",
        blockHash: (await rpc("eth_getBlockByNumber", "0x3e9", false)).hash,
        transactionHash: toAlice.txid,
        transactionIndex: "0x0",
        logIndex: "0x0",
        removed: false,
      },
    );
    assert.match(alice.topics[1] ?? "", /^0x0{24}[0-9a-f]{40}$/);
    assert.deepEqual([bob.transactionHash, bob.transactionIndex, bob.logIndex], [toBob.txid, "0x2", "0x1"]);
    assert.equal(bob.data, `0x${(500_000).toString(16).padStart(64, "0")}`);

    const toAliceOnly = await rpc("eth_getLogs", {
      fromBlock: "0x3e9",
      address: USDT_CONTRACT,
      topics: [TRANSFER, null, padded(ALICE)],
    });
    assert.deepEqual(
      toAliceOnly.map((log: { data: string }) => BigInt(log.data)),
      [250_000_000n, 7_000_000n],
    );
    const eitherEarlier = await rpc("eth_getLogs", {
      fromBlock: "0x3e9",
      toBlock: "0x3e9",
      address: USDT_CONTRACT,
      topics: [TRANSFER, null, [padded(ALICE), padded(BOB)]],
    });
    assert.equal(eitherEarlier.length, 2);
    assert.deepEqual(await rpc("eth_getLogs", { fromBlock: "0x3ea", toBlock: "0x3ea", address: ALICE }), []);
    assert.deepEqual(await rpc("eth_getLogs", { fromBlock: "0x3e9", topics: ["0x".padEnd(66, "0")] }), []);
    const receipt = await rpc("eth_getTransactionReceipt", toBob.txid);
    assert.deepEqual(receipt.logs, [bob]);
    assert.equal((await rpc("eth_getTransactionByHash", toBob.txid)).to, USDT_CONTRACT);
  });

  test("a reorg puts a block's transactions back in the pool, or drops them", async () => {
    const { chain, rpc } = world("eth-reorg");
    const kept = await chain.pay({ address: ALICE, amount: "25", asset: "USDT" });
    const { hashes } = await chain.mine(1, "ethereum");
    assert.deepEqual(await chain.reorg(1, { network: "ethereum" }), { height: 1001 });
    assert.notEqual((await rpc("eth_getBlockByNumber", "latest", true)).hash, hashes[0]);
    assert.deepEqual(await rpc("eth_getLogs", { fromBlock: "0x3e9", address: USDT_CONTRACT }), []);
    assert.equal((await rpc("eth_getTransactionByHash", kept.txid)).blockNumber, null);
    await chain.mine(1, "ethereum");
    assert.equal((await rpc("eth_getTransactionReceipt", kept.txid)).blockNumber, "0x3ea");

    await chain.reorg(1, { network: "ethereum", drop: true });
    assert.equal(await rpc("eth_getTransactionByHash", kept.txid), null);
    assert.deepEqual((await chain.state()).ethereum.pending, []);
  });

  test("answers batches, and errors as JSON-RPC error objects", async () => {
    const { chain } = world("eth-errors");
    const post = async (body: string) => {
      const init = { method: "POST", headers: { "Content-Type": "application/json" }, body };
      return (await (await fetch(chain.ethereumRpcUrl, init)).json()) as RpcAnswer & RpcAnswer[];
    };
    const batch = await post(
      JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] },
        { jsonrpc: "2.0", id: 2, method: "eth_sendRawTransaction", params: ["0x00"] },
        { jsonrpc: "2.0", id: 3, method: "eth_getBlockByNumber", params: ["soon", true] },
      ]),
    );
    assert.deepEqual(batch[0], { jsonrpc: "2.0", id: 1, result: "0x3e8" });
    assert.equal(batch[1]?.error?.code, -32601);
    assert.equal(batch[2]?.error?.code, -32602);
    assert.equal((await post("{not json")).error?.code, -32700);
    assert.equal((await post('{"jsonrpc":"2.0","id":4}')).error?.code, -32600);
    assert.equal((await fetch(chain.ethereumRpcUrl)).status, 405);
  });
});
