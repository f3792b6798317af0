import { describe, expect, it } from "vitest";
import { idOfReference, REFERENCE_PATTERN, transactionReference } from "~/lib/reference";

describe("transaction references", () => {
  it("read as TX- and six unambiguous characters, and decode back to their id", () => {
    const ids = [1, 2, 3, 41, 1_000, 65_535, 200_000, 123_456_789, 2 ** 30 - 1];
    for (let i = 0; i < 2_000; i++) ids.push(1 + Math.floor(Math.random() * (2 ** 30 - 1)));
    for (const id of ids) {
      const reference = transactionReference(id);
      expect(reference).toMatch(REFERENCE_PATTERN);
      expect(idOfReference(reference)).toBe(id);
    }
  });

  it("are unique over the first 200,000 ids and do not count up", () => {
    const seen = new Set<string>();
    for (let id = 1; id <= 200_000; id++) seen.add(transactionReference(id));
    expect(seen.size).toBe(200_000);
    // Consecutive ids differ in their leading characters too, so a reference says nothing about how many came before.
    const leading = new Set(Array.from({ length: 100 }, (_, i) => transactionReference(i + 1).slice(3, 6)));
    expect(leading.size).toBeGreaterThan(90);
  });

  it("are found however a person types them, and nothing else passes for one", () => {
    const reference = transactionReference(4_217);
    const body = reference.slice(3);
    expect(idOfReference(body.toLowerCase())).toBe(4_217);
    expect(idOfReference(` tx-${body} `)).toBe(4_217);
    expect(idOfReference(`TX ${body.slice(0, 3)} ${body.slice(3)}`)).toBe(4_217);
    for (const junk of ["", "TX-", "TX-12345", "TX-1234567", "TX-UUUUUU", "hello!", "TX-12345*"]) {
      expect(idOfReference(junk)).toBeNull();
    }
  });

  it("exist only for ids a transaction can have", () => {
    for (const id of [0, -1, 1.5, 2 ** 30, Number.NaN]) expect(() => transactionReference(id)).toThrow(RangeError);
  });
});
