/** (a) The desk's read (newest 50 over every client, the pending count) on one D1 database and over 16. */
import type { DeskRead } from "./desk.ts";
import { type Call, ms, now, percentile } from "./stats.ts";

const ROUNDS = 2;
const READS = 40;

export async function measureDesk(call: Call, cpu: () => number, rows: number): Promise<string[]> {
  const clients = Math.max(16, Math.round(rows / 10));
  const seedStart = now();
  await call(`/desk/seed?rows=${rows}&clients=${clients}`);
  const seeded = now() - seedStart;
  const timings: Record<string, number[]> = { one: [], fanout: [] };
  const cpus: Record<string, number[]> = { one: [], fanout: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of ["one", "fanout"]) {
      const cpuStart = cpu();
      for (let read = 0; read < READS; read++) {
        const start = now();
        await call(`/desk/${kind}`);
        timings[kind]?.push(now() - start);
      }
      cpus[kind]?.push((cpu() - cpuStart) / READS);
    }
  }
  const [one, fanout] = [await call<DeskRead>("/desk/one"), await call<DeskRead>("/desk/fanout")];
  const same = JSON.stringify(one) === JSON.stringify(fanout);
  console.log(`## (a) The desk's read: ${rows} rows over ${clients} clients, on one database and over 16\n`);
  console.log(
    `Seeded in ${ms(seeded)}. ${ROUNDS} rounds of ${READS} reads each, one at a time; the same answer: ${same ? "yes" : "NO"} (${one.newest.length} rows, ${one.pending} pending).\n`,
  );
  console.log("| read | p50 wall | p95 wall | CPU per read (each round) |\n| --- | --- | --- | --- |");
  for (const kind of ["one", "fanout"]) {
    const values = timings[kind] ?? [];
    const label = kind === "one" ? "one database" : "fanned out over 16";
    console.log(
      `| ${label} | ${ms(percentile(values, 0.5))} | ${ms(percentile(values, 0.95))} | ${(cpus[kind] ?? []).map(ms).join(", ")} |`,
    );
  }
  console.log("");
  return same ? [] : ["the fanned-out desk read differs from the one-database read"];
}
