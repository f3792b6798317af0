/**
 * Runs an archive's cron step (mail, audit rows) again and again, as successive minutes would, until a run moves
 * nothing; answers how many rows moved in all. A step that never settles fails the test rather than looping.
 */
export async function untilSettled(step: () => Promise<number>, most = 100): Promise<number> {
  let total = 0;
  for (let run = 0; run < most; run++) {
    const moved = await step();
    if (moved === 0) return total;
    total += moved;
  }
  throw new Error("the archive did not settle");
}
