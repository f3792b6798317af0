/**
 * The chain simulator's control API for tests, in workerd (with `inject("chainSimulatorUrl")`,
 * tests/setup/chain-simulator.ts) or in node (Playwright, against scripts/e2e-server.ts's simulator): pay, mine,
 * reorg, replace, rate, outage, state, and the Worker settings (`vars`) that read the same world. Only fetch.
 */
export {
  type ChainAsset,
  type ChainControl,
  type ChainNetwork,
  type ChainState,
  chainControl,
  chainWorkerVars,
  type Payment,
  USDT_CONTRACT,
} from "../../scripts/lib/chain-simulator/client.ts";
