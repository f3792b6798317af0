/** What a monthly statement says about its orders, on its page and in its PDF alike (one line on paper). */
export const MONTH_ORDERS_NOTE =
  "A buy moves no money; each sale's result is a Profit or Loss movement with the memo 'Sale' and its serial.";
export const MONTH_ORDERS_EMPTY = "No orders this month.";
