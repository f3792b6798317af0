/** Small helpers of the spike's runner: a bounded pool of requests, percentiles, a clock. */
/** A GET of the spike Worker's path, its JSON answer. */
export type Call = <T>(path: string) => Promise<T>;

export const now = () => performance.now();

export async function inPool<T>(count: number, concurrency: number, task: (index: number) => Promise<T>): Promise<T[]> {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < count; index = next++) results[index] = await task(index);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}

export function percentile(values: number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] ?? Number.NaN;
}

export const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

/** Polls `done` every 5 ms until it holds or `limitMs` passes; the time it took, or NaN. */
export async function until(done: () => Promise<boolean>, limitMs = 30_000): Promise<number> {
  const start = now();
  while (now() - start < limitMs) {
    if (await done()) return now() - start;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return Number.NaN;
}
