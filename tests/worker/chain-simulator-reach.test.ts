import { describe, expect, inject, it } from "vitest";
import { chainControl } from "../support/chain";

/**
 * A test inside workerd reaches the run's chain simulator (tests/setup/chain-simulator.ts): it pays and mines
 * through the control API and reads the tip where the Worker would, through the Esplora URL.
 */
describe("the chain simulator from workerd", () => {
  it("pays, mines and reads the tip through Esplora", async () => {
    const chain = chainControl(inject("chainSimulatorUrl"), "worker-reach");
    const paid = await chain.pay({ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", amount: "0.01" });
    const { height, hashes } = await chain.mine(2);
    expect(height).toBe(102);
    const tip = await fetch(`${chain.vars.BITCOIN_ESPLORA_URL}/blocks/tip/height`);
    expect(await tip.text()).toBe("102");
    const status = await (await fetch(`${chain.esploraUrl}/tx/${paid.txid}/status`)).json();
    expect(status).toMatchObject({ confirmed: true, block_height: 101, block_hash: hashes[0] });
  });
});
