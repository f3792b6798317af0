/**
 * The quotes simulator's control API for tests (the chain simulator's `quotes` area), in workerd (with
 * `inject("chainSimulatorUrl")`) or in node (Playwright, against scripts/e2e-server.ts's simulator): set, age, walk,
 * fail, ok, state, and the Worker settings (`vars`: QUOTES_URL and local keys) that read the same world. Only fetch.
 */
export {
  type QuotesControl,
  type QuotesState,
  quotesControl,
  quotesWorkerVars,
  SIMULATOR_QUOTES_KEYS,
  type SimulatedQuote,
} from "../../scripts/lib/quotes-simulator/client.ts";
