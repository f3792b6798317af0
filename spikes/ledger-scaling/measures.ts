/** What `npm run spike:ledger` measures, one function per figure of docs/decisions/0076; each returns its failures. */
import { type Call, inPool, ms, now, percentile, until } from "./stats.ts";

type State = { balanceCents: number; pendingCents: number; rows: number; outbox: number; bytes: number };
type Withdrawal = { ok: boolean; id?: number };
type ReadModel = { rows: number; all_rows: number; bytes: number };

const drained = (call: Call, prefix: string, rows: number) => async () =>
  (await call<ReadModel>(`/read-model?prefix=${prefix}`)).rows >= rows;

/** (b) 20 parallel withdrawals on one client's object, five clients in turn: exactly as many pass as are covered. */
export async function measureRace(call: Call, cpu: () => number): Promise<string[]> {
  const failures: string[] = [];
  const [deposit, amount, parallel] = [10_000, 700, 20];
  const covered = Math.floor(deposit / amount);
  const lines: string[] = [];
  for (let round = 0; round < 5; round++) {
    const client = `race-${round}`;
    await call(`/deposit?client=${client}&amount=${deposit}`);
    const [cpuStart, start] = [cpu(), now()];
    const results = await Promise.all(
      Array.from({ length: parallel }, (_, i) =>
        call<Withdrawal>(`/withdraw?client=${client}&amount=${amount}&key=k${i}`),
      ),
    );
    const [wall, cpuUsed] = [now() - start, cpu() - cpuStart];
    const state = await call<State>(`/state?client=${client}`);
    const passed = results.filter((result) => result.ok).length;
    lines.push(
      `| ${client} | ${passed} of ${parallel} | ${state.balanceCents - state.pendingCents} | ${ms(wall)} | ${ms(cpuUsed / parallel)} |`,
    );
    if (passed !== covered) failures.push(`${client}: ${passed} withdrawals passed, ${covered} are covered`);
    if (state.pendingCents !== covered * amount || state.balanceCents - state.pendingCents < 0) {
      failures.push(`${client}: balance ${state.balanceCents}, pending ${state.pendingCents}`);
    }
  }
  console.log(`## (b) ${parallel} parallel withdrawals of ${amount} cents on one client's object, balance ${deposit}`);
  console.log(
    `Covered: ${covered}. Wall: the batch from Node. CPU: workerd over the batch / ${parallel} (in clock ticks of 10 ms: coarse for 20 requests).\n`,
  );
  console.log(
    "| client | passed | withdrawable after (cents) | batch wall | CPU per request |\n| --- | --- | --- | --- | --- |",
  );
  console.log(`${lines.join("\n")}\n`);
  return failures;
}

/** (b) CPU per request over 1,000 withdrawal requests (10 at a time, 4 clients (250 rows each, enough pages to weigh a row)), outbox pushes included. */
export async function measureCpu(call: Call, cpu: () => number): Promise<string[]> {
  const [count, clients] = [1_000, 4];
  await inPool(clients, 10, (i) => call(`/deposit?client=cpu-${i}&amount=1000000`));
  await until(drained(call, "cpu-", clients));
  const pingStart = [cpu(), now()];
  await inPool(count, 10, () => call("/ping"));
  const ping = [(cpu() - (pingStart[0] ?? 0)) / count, (now() - (pingStart[1] ?? 0)) / count];
  const sizeBefore = (await call<ReadModel>("/read-model")).bytes;
  const [cpuStart, start] = [cpu(), now()];
  await inPool(count, 10, (i) => call(`/withdraw?client=cpu-${i % clients}&amount=1&key=w${i}`));
  const acked = now() - start;
  await until(drained(call, "cpu-", clients + count));
  const [cpuUsed, wall] = [cpu() - cpuStart, now() - start];
  const readModel = await call<ReadModel>("/read-model");
  const full = await call<State>("/state?client=cpu-0");
  await call("/deposit?client=bytes-0&amount=1");
  const single = await call<State>("/state?client=bytes-0");
  console.log(`## (b) CPU per request: ${count} withdrawal requests, 10 at a time over ${clients} clients\n`);
  console.log("| what | per request |\n| --- | --- |");
  console.log(`| workerd CPU, the request and its outbox push to D1 | ${ms(cpuUsed / count)} |`);
  console.log(`| workerd CPU of /ping (routing and loopback alone) | ${ms(ping[0] ?? 0)} |`);
  console.log(`| wall, 10 at a time, until acknowledged / until in D1 | ${ms(acked / count)} / ${ms(wall / count)} |`);
  console.log(`| wall of /ping, 10 at a time | ${ms(ping[1] ?? 0)} |`);
  const doBytes = (full.bytes - single.bytes) / (full.rows - single.rows);
  const rmBytes = (readModel.bytes - sizeBefore) / count;
  console.log(
    `| object storage per ledger row (databaseSize, ${full.rows} rows against 1) | ${doBytes.toFixed(0)} B |`,
  );
  console.log(`| read model per row (D1 size_after) | ${rmBytes.toFixed(0)} B |\n`);
  return full.outbox === 0 ? [] : [`cpu-0's outbox still holds ${full.outbox} events`];
}

/** (b) The read model's lag under a burst: 500 writes over 50 clients, fired 100 at a time. */
export async function measureBurst(call: Call): Promise<string[]> {
  const [writes, clients] = [500, 50];
  const start = now();
  await inPool(writes, 100, (i) => call(`/deposit?client=burst-${i % clients}&amount=${100 + i}`));
  const acked = now() - start;
  const caughtUp = await until(drained(call, "burst-", writes));
  const lags = await call<number[]>("/lags?prefix=burst-");
  console.log(`## (b) The read model's lag: ${writes} writes over ${clients} client objects, 100 at a time\n`);
  console.log("| what | time |\n| --- | --- |");
  console.log(`| the burst, first sent to last acknowledged | ${ms(acked)} |`);
  console.log(`| last acknowledged to all ${writes} in D1 (polled every 5 ms) | ${ms(caughtUp)} |`);
  console.log(
    `| per row, written in the object to pushed (p50 / p95 / max) | ${lags.length ? [0.5, 0.95, 1].map((f) => ms(percentile(lags, f))).join(" / ") : "–"} |\n`,
  );
  return Number.isNaN(caughtUp) ? ["the read model did not catch up within 30 s"] : [];
}

/** Per-admin sums over clients: 20 parallel approvals by one admin on 20 clients against a limit of 7. */
export async function measureAdminLimit(call: Call): Promise<string[]> {
  const [clients, amount, limit] = [20, 1_000, 7_000];
  const ids = await inPool(clients, 10, async (i) => {
    await call(`/deposit?client=adm-${i}&amount=2000`);
    return (await call<Withdrawal>(`/withdraw?client=adm-${i}&amount=${amount}&key=a`)).id;
  });
  const start = now();
  const results = await Promise.all(
    ids.map((id, i) =>
      call<{ approved: boolean }>(`/approve?admin=a1&client=adm-${i}&id=${id}&amount=${amount}&limit=${limit}`),
    ),
  );
  const wall = now() - start;
  const approved = results.filter((result) => result.approved).length;
  const sum = await call<number>("/admin-sum?admin=a1");
  console.log("## Per-admin 24-hour sum over clients (an admin object, reserve then approve)\n");
  console.log(
    `${clients} parallel approvals of ${amount} cents by one admin, limit ${limit}: ${approved} approved, sum ${sum}, ${ms(wall)} for the batch.\n`,
  );
  return approved === limit / amount && sum === limit ? [] : [`admin limit: ${approved} approved, sum ${sum}`];
}

export { measureDesk } from "./measure-desk.ts";
