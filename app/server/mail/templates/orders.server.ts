import { z } from "zod";
import { orderNoticeDetail, orderNoticeTitle } from "~/lib/order-notices";
import type { AppEnv } from "../../env.server";
import { compose, greeting, utcMinute } from "../compose.server";
import { mailTemplate } from "./template.server";

/**
 * The client's mail about their own order (docs/product.md, "Orders and positions"): a buy, its cancel, a sale,
 * or the desk's close of one of their positions, with what it filled at. An optional mail (the 'orders'
 * category); the notification centre shows it always.
 */
export const orderFilledData = z.object({
  name: z.string().trim().max(200),
  order: z.enum(["buy", "cancel", "sell", "close"]),
  symbol: z.string().trim().min(1).max(20),
  serial: z.string().regex(/^[PS]-\d{6,}$/),
  sharesE4: z.number().int().positive(),
  priceE4: z.number().int().positive(),
  cents: z.number().int().nonnegative(),
  resultCents: z.number().int().nullable().optional(),
  at: z.number().int().positive(),
});
type OrderFilledData = z.infer<typeof orderFilledData>;

function renderOrderFilled(d: OrderFilledData, env: AppEnv) {
  return compose(env, orderNoticeTitle(d), {
    paragraphs: [
      greeting(d.name),
      d.order === "cancel"
        ? "You cancelled this order within its 3 seconds: nothing was bought and nothing was charged."
        : `${orderNoticeDetail(d)}. It shows in your Portfolio and History.`,
    ],
    facts: [
      ["Order", d.serial],
      ["Stock", d.symbol],
      ["When", utcMinute(d.at)],
    ],
    footnote:
      d.order === "close"
        ? `Our desk closed this position at the current price. Questions? Contact ${env.SUPPORT_EMAIL}.`
        : `Did not place this order? Change your password and contact ${env.SUPPORT_EMAIL} at once.`,
  });
}

/** To the client: their order was filled (a buy or a sale) or cancelled. */
export const orderFilled = mailTemplate(orderFilledData, renderOrderFilled);
