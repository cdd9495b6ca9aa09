import { describe, expect, it, vi } from "vitest";
import {
  placedReports,
  relativeTime,
  replaceReport,
  splitByWorkbook,
  syncStatusLabel,
} from "../../src/core/index.js";
import { fullReport, revenueInTwoWorkbooks } from "./fixtures.js";

const report = revenueInTwoWorkbooks();

describe("the placement view shared by the pane and the host commands", () => {
  it("lists every placement with its report, split by workbook", () => {
    const placed = placedReports([report]);
    const { here, elsewhere } = splitByWorkbook(placed, "wb-1");
    expect(here.map((p) => p.id)).toEqual(["p1"]);
    expect(elsewhere.map((p) => p.id)).toEqual(["p2"]);
    expect(here[0]?.report.name).toBe("Revenue by region");
  });

  it("replaces the report the service returned and leaves the others", () => {
    const other = fullReport({ id: 5, name: "Other" });
    const updated = { ...report, name: "Renamed" };
    expect(replaceReport([other, report], updated).map((r) => r.name)).toEqual(["Other", "Renamed"]);
  });

  it("adds a report the list does not hold yet (one just placed here)", () => {
    const other = fullReport({ id: 5, name: "Other" });
    expect(replaceReport([other], report).map((r) => r.name)).toEqual(["Other", "Revenue by region"]);
    expect(replaceReport([other], { ...other, deploymentId: 2 })).toHaveLength(2);
  });

  it("labels sync statuses, and anything unknown as Unknown", () => {
    expect(syncStatusLabel("UP_TO_DATE")).toBe("Up to date");
    expect(syncStatusLabel("CHANGED")).toBe("Out of date");
    expect(syncStatusLabel("UNKNOWN")).toBe("Unknown");
    expect(syncStatusLabel("STALE")).toBe("Unknown");
    expect(syncStatusLabel(null)).toBe("Unknown");
  });

  it("says when a placement was refreshed, relative to now", () => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    expect(relativeTime("2026-11-22T09:00:00Z", now)).toBe("3 hours ago");
    expect(relativeTime("2026-11-22T11:59:50Z", now)).toBe("just now");
    expect(relativeTime("2026-11-21T12:00:00Z", now)).toBe("yesterday");
    expect(relativeTime("garbage", now)).toBeNull();
    expect(relativeTime(null, now)).toBeNull();
  });

  it("says it as Intl.RelativeTimeFormat says it in English, past and future, without making one (its first costs 50 ms)", async () => {
    const intl = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
    const units: [Intl.RelativeTimeFormatUnit, number][] = [
      ["year", 365 * 86400],
      ["month", 30 * 86400],
      ["week", 7 * 86400],
      ["day", 86400],
      ["hour", 3600],
      ["minute", 60],
    ];
    const expected = (seconds: number) => {
      if (Math.abs(seconds) < 45) return "just now";
      const [unit, size] = units.find(([u, size]) => Math.abs(seconds) >= size || u === "minute")!;
      return intl.format(Math.round(seconds / size), unit);
    };
    const made = vi.spyOn(Intl, "RelativeTimeFormat");
    // A fresh copy of the module: nothing made by an earlier call counts as already there.
    vi.resetModules();
    const fresh = (await import("../../src/core/placement-view.js")).relativeTime;
    const now = Date.parse("2026-11-22T12:00:00Z");
    const offsets = [
      ...Array.from({ length: 400 }, (_, i) => i * 29),
      ...Array.from({ length: 400 }, (_, i) => i * 1_901),
      ...Array.from({ length: 400 }, (_, i) => i * 86_399),
      ...[1, 2, 11, 999, 1_000, 1_234, 12_345].map((years) => years * 365 * 86400),
    ];
    for (const offset of offsets) {
      for (const seconds of [-offset, offset]) {
        const at = new Date(now + seconds * 1000).toISOString();
        expect(fresh(at, now), `${seconds} s`).toBe(expected(seconds));
      }
    }
    expect(made).not.toHaveBeenCalled();
    made.mockRestore();
  });
});
