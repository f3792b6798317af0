import { describe, expect, it } from "vitest";

/**
 * Modules by concern: no file under app/ or workers/ passes 300 lines (docs/decisions/0012). A file that grows past
 * it holds two concerns; split it. Data and copy (the stock and country lists, the public pages' text) are long by
 * nature and excepted by name.
 */
const MAX_LINES = 300;
const DATA_FILES = new Set(["/app/lib/stocks.ts", "/app/lib/countries.ts", "/app/lib/content.ts"]);

const sources = import.meta.glob<string>(["/app/**/*.{ts,tsx}", "/workers/**/*.ts"], {
  query: "?raw",
  import: "default",
  eager: true,
});

const lineCount = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("module size", () => {
  it("reads every module of the app and the Worker", () => {
    const files = Object.keys(sources);
    expect(files).toContain("/app/root.tsx");
    expect(files).toContain("/workers/app.ts");
    expect(files.length).toBeGreaterThan(200);
  });

  it(`keeps every module under ${MAX_LINES} lines, data files apart`, () => {
    const tooLong = Object.entries(sources)
      .filter(([file, text]) => !DATA_FILES.has(file) && lineCount(text) > MAX_LINES)
      .map(([file, text]) => `${file.slice(1)}: ${lineCount(text)} lines`);
    expect(tooLong).toEqual([]);
  });

  it("excepts only data files that exist", () => {
    for (const file of DATA_FILES) expect(Object.keys(sources)).toContain(file);
  });
});
