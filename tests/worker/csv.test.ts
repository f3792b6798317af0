import { describe, expect, it } from "vitest";
import { csvField, csvStream } from "~/server/csv.server";

/** A source of `total` numbered rows that records each page it was asked for. */
function numbered(total: number, pageSize: number) {
  const reads: Array<number | undefined> = [];
  const stream = csvStream<{ n: number }, number>({
    header: ["n", "note"],
    pageSize,
    readPage: async (after, limit) => {
      reads.push(after);
      const start = (after ?? 0) + 1;
      return Array.from({ length: Math.max(0, Math.min(limit, total - start + 1)) }, (_, i) => ({ n: start + i }));
    },
    keyOf: (row) => row.n,
    cells: (row) => [row.n, row.n % 2 ? "=1+1" : "plain"],
  });
  return { stream, reads };
}

describe("streamed CSV", () => {
  it("sends the header before reading any row, then one page per pull", async () => {
    const { stream, reads } = numbered(5_000, 1_000);
    const reader = stream.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe("n,note\r\n");
    expect(reads.length).toBeLessThanOrEqual(1);
    await reader.read();
    expect(reads.length).toBeLessThanOrEqual(2);
    await reader.cancel();
  });

  it("stops reading when the reader goes away", async () => {
    const { stream, reads } = numbered(100_000, 1_000);
    const reader = stream.getReader();
    await reader.read();
    await reader.read();
    await reader.cancel();
    const afterCancel = reads.length;
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(reads.length).toBe(afterCancel);
    expect(afterCancel).toBeLessThan(5);
  });

  it("returns every row exactly once, in order, across page boundaries", async () => {
    const { stream } = numbered(2_345, 1_000);
    const text = await new Response(stream).text();
    const lines = text.trimEnd().split("\r\n");
    expect(lines).toHaveLength(2_346);
    expect(lines.slice(1).map((line) => Number(line.split(",")[0]))).toEqual(
      Array.from({ length: 2_345 }, (_, i) => i + 1),
    );
  });

  it("quotes as RFC 4180 and never lets a cell start a formula", () => {
    expect(csvField('say "hi", then leave')).toBe('"say ""hi"", then leave"');
    expect(csvField('=HYPERLINK("x")')).toBe('"\'=HYPERLINK(""x"")"');
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("-12.50")).toBe("-12.50");
    expect(csvField("-1+2")).toBe("'-1+2");
    expect(csvField(null)).toBe("");
  });
});
