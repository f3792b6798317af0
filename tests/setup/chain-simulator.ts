/**
 * One chain simulator for the whole worker test run (vitest's globalSetup, in node): started on a free port, its
 * address handed to the tests as `inject("chainSimulatorUrl")`. A test file takes a namespace of its own
 * (`chainControl(url, "<file's name>")`, tests/support/chain.ts), so files running side by side never meet.
 */
import type { TestProject } from "vitest/node";
import { startChainSimulator } from "../../scripts/lib/chain-simulator.ts";
import { freePort } from "../../scripts/lib/free-port.ts";

declare module "vitest" {
  interface ProvidedContext {
    chainSimulatorUrl: string;
  }
}

export default async function setup(project: TestProject) {
  const simulator = await startChainSimulator({ port: await freePort() });
  project.provide("chainSimulatorUrl", simulator.url);
  return () => simulator.close();
}
