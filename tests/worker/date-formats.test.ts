import { describe, expect, it } from "vitest";
import { formatDateTimeUtc, formatLongDate, formatMediumDate } from "~/lib/format";

/** What the pages showed before the formatters kept their texts: Intl's own answer for the exact moment. */
const intl = {
  long: new Intl.DateTimeFormat("en-US", { dateStyle: "long", timeZone: "UTC" }),
  medium: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }),
  dateTime: new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }),
};
const DAY = 86_400_000;

/** Moments at random from 1965 to 2100, and on each side of a midnight and of a minute's turn. */
function moments(count: number): number[] {
  const list: number[] = [];
  for (let i = 0; i < count; i++) {
    const moment = Math.floor(-5 * 365 * DAY + Math.random() * 135 * 365 * DAY);
    const midnight = Math.floor(moment / DAY) * DAY;
    list.push(moment, midnight, midnight - 1, midnight + 59_999, midnight + 60_000, midnight - 60_001);
  }
  return list;
}

describe("dates as every page shows them", () => {
  it("are kept by the day or minute they show in the Worker's build, which these tests run", () => {
    // The formatters keep their texts where `import.meta.env.SSR` holds (app/lib/format.ts): here, as in the Worker.
    expect(import.meta.env.SSR).toBe(true);
  });

  it("are Intl's text for the exact moment, at either side of a day's and a minute's turn, before 1970 too", () => {
    // More moments than a formatter keeps texts for, so that it also starts again and stays right.
    for (const moment of moments(2_000)) {
      expect(formatLongDate(moment)).toBe(intl.long.format(moment));
      expect(formatMediumDate(moment)).toBe(intl.medium.format(moment));
      expect(formatDateTimeUtc(moment)).toBe(`${intl.dateTime.format(moment)} UTC`);
    }
  });

  it("asked again for a moment of a day already shown, give that day's text, not the first moment's", () => {
    const morning = Date.UTC(2026, 2, 5, 0, 0, 1);
    const evening = Date.UTC(2026, 2, 5, 23, 59, 59);
    // ICU may put a narrow space before AM/PM: read as a space.
    expect(formatDateTimeUtc(morning).replace("\u202f", " ")).toBe("Mar 5, 2026, 12:00 AM UTC");
    expect(formatDateTimeUtc(evening).replace("\u202f", " ")).toBe("Mar 5, 2026, 11:59 PM UTC");
    expect(formatLongDate(morning)).toBe("March 5, 2026");
    expect(formatLongDate(evening)).toBe("March 5, 2026");
    expect(formatLongDate(null)).toBe("N/A");
  });
});
