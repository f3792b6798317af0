import { eq } from "drizzle-orm";
import { schema } from "~/server/db.server";
import { enqueueEmail } from "~/server/mail/outbox.server";
import { db } from "./fixtures";

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

type Values = Partial<typeof schema.emailOutbox.$inferInsert>;

/** One `welcome` notice for `to`, then set to whatever state the test needs. */
export async function mail(to: string, name: string, values: Values) {
  const [rows] = await db.batch([enqueueEmail(db, { to, template: "welcome", data: { name } })]);
  const id = rows[0]?.id;
  if (!id) throw new Error("no outbox row");
  await db.update(schema.emailOutbox).set(values).where(eq(schema.emailOutbox.id, id));
  return id;
}

/** A delivered mail's state: queued at `createdAt`, sent a second later (with a provider id) or captured. */
export const delivered = (createdAt: number, status: "sent" | "captured" = "sent"): Values => ({
  status,
  createdAt,
  sentAt: createdAt + 1_000,
  providerId: status === "sent" ? `re_${crypto.randomUUID()}` : null,
});
