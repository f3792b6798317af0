import { FakeOAuthProvider } from "./fake-oauth-provider";

/** One fake Google and GitHub for the whole run, whatever the number of workers; stopped at the end. */
export default async function globalSetup() {
  const provider = new FakeOAuthProvider();
  await provider.start();
  return () => provider.stop();
}
