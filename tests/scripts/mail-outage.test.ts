/**
 * The outage drill (`npm run mail:outage`, scripts/lib/mail-outage-drill.ts): the outbox's own code against the mail
 * simulator through a 25-hour provider outage delivers every notice exactly once after the recovery; and an outage
 * longer than the retry window is counted as losing the notices it outlasts, so the drill sees a loss when there is
 * one. Run with `npm run test:scripts`.
 */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { runMailOutageDrill } from "../../scripts/lib/mail-outage-drill.ts";

describe("a mail-provider outage", { timeout: 120_000 }, () => {
  let retryWindowHours = 0;

  test("of 25 hours loses no notice: each is delivered exactly once after the recovery", async () => {
    const figures = await runMailOutageDrill({ outageHours: 25, mails: 50 });
    retryWindowHours = figures.retryWindowHours;
    assert.ok(figures.refusedDuringOutage >= 50, "every notice was refused at least once during the outage");
    assert.deepEqual(
      {
        queued: figures.queued,
        givenUp: figures.givenUp,
        stillPending: figures.stillPending,
        deliveredOnce: figures.deliveredOnce,
        deliveredTwice: figures.deliveredTwice,
        neverDelivered: figures.neverDelivered,
        lost: figures.lost,
      },
      { queued: 50, givenUp: 0, stillPending: 0, deliveredOnce: 50, deliveredTwice: 0, neverDelivered: 0, lost: 0 },
    );
    // After the recovery, each notice goes out at its next try: within the longest wait between tries, an hour.
    assert.ok(figures.minutesToDrain <= 60, `drained in ${figures.minutesToDrain} minutes`);
  });

  test("longer than the retry window loses the notices queued before the window's length", async () => {
    assert.ok(retryWindowHours >= 25, "the retry window covers a 25-hour outage");
    // One notice at the start, the others well inside the window of the recovery.
    const figures = await runMailOutageDrill({ outageHours: retryWindowHours + 3, mails: 5 });
    assert.equal(figures.givenUp, 1);
    assert.equal(figures.neverDelivered, 1);
    assert.equal(figures.deliveredOnce, 4);
    assert.equal(figures.lost, 1);
  });
});
