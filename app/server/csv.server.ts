/**
 * CSV downloads that stream: rows are read a page at a time (keyset, about 1,000 rows) only when the reader
 * pulls, so memory does not grow with the rows, the first bytes leave before the last page is read, and a
 * reader that goes away (`cancel`) stops the reads. Every cell is quoted as RFC 4180 says and defused against
 * spreadsheet formulas, and every transaction's money is written one way (`moneyCells`).
 */
import { typeLabel } from "~/lib/labels";
import { centsToAmount, isCredit, type TransactionStatus, type TransactionType } from "~/lib/ledger";

/** Rows per read: large enough that a long history takes few round trips, small enough to stay light. */
export const CSV_PAGE_SIZE = 1000;

export interface CsvSource<Row, Key> {
  /** The header line's column names. */
  header: readonly string[];
  /** The next page of at most `limit` rows after `after` (undefined: from the start), in the export's order. */
  readPage: (after: Key | undefined, limit: number) => Promise<Row[]>;
  /** Where the next page starts: the keyset of the page's last row. */
  keyOf: (row: Row) => Key;
  /** A row's cells, in the header's order; called in order, so it may keep a running figure. */
  cells: (row: Row) => Array<string | number | null | undefined>;
  pageSize?: number;
}

/**
 * A transaction's money in every CSV (docs/product.md, "CSV downloads"; docs/decisions/0031): `direction`,
 * 'in' or 'out' by its type, then `amount`, always positive, two decimals. Neither depends on the status, so no
 * cell of a rejected or cancelled row reads as money that moved: the status column says whether it did.
 */
export const MONEY_COLUMNS = ["direction", "amount"] as const;

export function moneyCells(type: TransactionType, cents: number): [direction: "in" | "out", amount: string] {
  return [isCredit(type) ? "in" : "out", centsToAmount(cents)];
}

/** A transaction as the full-history CSVs (the client's History, the admin's client export) write it. */
export const TRANSACTION_COLUMNS = ["date", "type", "status", ...MONEY_COLUMNS, "trading_pair", "stock"] as const;

export function transactionCells(row: {
  createdAt: number;
  transactionType: TransactionType;
  status: TransactionStatus;
  amountCents: number;
  tradingPair: string | null;
  stock: string | null;
}) {
  return [
    new Date(row.createdAt).toISOString(),
    typeLabel(row.transactionType),
    row.status,
    ...moneyCells(row.transactionType, row.amountCents),
    row.tradingPair,
    row.stock,
  ];
}

export function csvStream<Row, Key>(source: CsvSource<Row, Key>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pageSize = source.pageSize ?? CSV_PAGE_SIZE;
  let after: Key | undefined;
  let headerSent = false;
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvLine(source.header)));
          return;
        }
        if (done) return;
        const rows = await source.readPage(after, pageSize);
        if (rows.length > 0) {
          controller.enqueue(encoder.encode(rows.map((row) => csvLine(source.cells(row))).join("")));
          after = source.keyOf(rows[rows.length - 1] as Row);
        }
        if (rows.length < pageSize) {
          done = true;
          controller.close();
        }
      },
      cancel() {
        done = true;
      },
    },
    // One page waits at most: the next read starts only when the reader has taken the last one.
    { highWaterMark: 1 },
  );
}

/** One CSV line, CRLF-terminated. */
export function csvLine(values: ReadonlyArray<string | number | null | undefined>): string {
  return `${values.map(csvField).join(",")}\r\n`;
}

/**
 * RFC 4180 quoting, and no leading formula characters: a spreadsheet must not run a cell (=, +, -, @, tab or
 * carriage return first), except a plain negative number.
 */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A CSV file to download as `fileName`, streamed; `cacheControl` keeps it out of every cache on the way. */
export function csvDownload(body: ReadableStream<Uint8Array>, fileName: string, cacheControl = "no-store"): Response {
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": cacheControl,
    },
  });
}

/** A download's file name with the UTC days it covers: "alerts-2026-01-01-to-2026-01-31.csv"; "alerts.csv" for all. */
export function rangedFileName(base: string, range: { from?: string; to?: string }): string {
  const span = [range.from, range.to].filter(Boolean).join("-to-");
  return `${base}${span ? `-${span}` : ""}.csv`;
}

/** A back-office download refused for its filters: their messages, one a line, as 400 (nothing is exported). */
export function refusedDownload(errors: readonly string[]): Response {
  return new Response(errors.join("\n"), { status: 400, headers: { "Content-Type": "text/plain; charset=utf-8" } });
}
