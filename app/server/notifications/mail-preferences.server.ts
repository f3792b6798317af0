/**
 * The client's mail preferences (docs/product.md, "Mail preferences"): which optional mails they want. What is
 * stored here is applied where mail is queued, by migration 0025's trigger on the outbox, so no code path can send
 * an optional mail the client turned off, and a security or legal notice has no category to turn off.
 */
import { eq } from "drizzle-orm";
import { MAIL_CATEGORY_LIST } from "~/lib/mail-preferences";
import type { MailCategory } from "../../../db/enums";
import type { Db } from "../db.server";
import { schema, writeTogether } from "../db.server";

const { mailPreferences } = schema;

export type MailPreferences = Record<MailCategory, boolean>;

/** Every category with the client's choice; one never chosen is wanted. */
export async function mailPreferencesOf(db: Db, userId: string): Promise<MailPreferences> {
  const rows = await db
    .select({ category: mailPreferences.category, wanted: mailPreferences.wanted })
    .from(mailPreferences)
    .where(eq(mailPreferences.userId, userId));
  const chosen = new Map(rows.map((row) => [row.category, row.wanted]));
  return Object.fromEntries(
    MAIL_CATEGORY_LIST.map(({ category }) => [category, chosen.get(category) ?? true]),
  ) as MailPreferences;
}

/**
 * Saves the form: a category's checkbox ticked is wanted, unticked is not. Only the categories the product has
 * are read, so a forged field (a security notice, a made-up name) changes nothing. One batch, every category.
 */
export async function saveMailPreferences(db: Db, userId: string, form: FormData, now = Date.now()) {
  const writes = Object.fromEntries(
    MAIL_CATEGORY_LIST.map(({ category }) => {
      const wanted = form.get(category) === "on";
      return [
        category,
        db
          .insert(mailPreferences)
          .values({ userId, category, wanted, updatedAt: now })
          .onConflictDoUpdate({
            target: [mailPreferences.userId, mailPreferences.category],
            set: { wanted, updatedAt: now },
          }),
      ];
    }),
  );
  await writeTogether(db, writes);
}
