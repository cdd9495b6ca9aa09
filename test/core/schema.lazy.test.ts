/**
 * The core's schemas are built when first used (src/core/lazy-schema.ts), not when their modules
 * load, and what the pane's first list reads (the stored settings, the page of reports, the reports)
 * is read by hand when it has the plain shape the service and the add-in write; building the
 * schemas as the modules loaded, and zod's first parse, cost it main-thread CPU
 * (docs/benchmarks.md, "Cold pane: main-thread CPU"). Counted here through the core's zod module:
 * every schema the core builds goes through it.
 */
import { beforeEach, describe, expect, it, vi } from "vitest";
import { lazily } from "../../src/core/lazy-schema.js";
import { fullReport } from "./fixtures.js";

const calls = vi.hoisted(() => ({ all: 0, enums: [] as unknown[][] }));

vi.mock("../../src/core/zod.js", async (importOriginal) => {
  const real = await importOriginal<Record<string, unknown>>();
  const counted: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(real)) {
    counted[name] =
      typeof value === "function"
        ? (...args: unknown[]) => {
            calls.all++;
            if (name === "enum") calls.enums.push(args[0] as unknown[]);
            return (value as (...a: unknown[]) => unknown)(...args);
          }
        : value;
  }
  return counted;
});

beforeEach(() => {
  vi.resetModules();
  calls.all = 0;
  calls.enums = [];
});

describe("the core's schemas, built on first use", () => {
  it("builds no schema when schema.ts, operations.ts, directory.ts and settings.ts load", async () => {
    await import("../../src/core/schema.js");
    await import("../../src/core/operations.js");
    await import("../../src/core/directory.js");
    await import("../../src/core/settings.js");
    expect(calls.all).toBe(0);
  });

  it("reads the first list's stored settings and page of reports by hand, building no schema", async () => {
    const { readStoredSettings } = await import("../../src/core/settings.js");
    const { operations } = await import("../../src/core/operations.js");
    const settings = readStoredSettings(
      JSON.stringify({ tenantUrl: "https://acme.example.com", apiKey: "k", deploymentId: 1 }),
    );
    expect(settings.deploymentId).toBe(1);
    const page = operations.listReportsPage(1, {}).read({ items: [fullReport()], pageInfo: null });
    expect(page.reports).toHaveLength(1);
    expect(calls.all).toBe(0);
  });

  it("reads the service's plain report by hand, building no schema", async () => {
    const { safeParseTolerantReport } = await import("../../src/core/schema.js");
    const read = safeParseTolerantReport(fullReport());
    expect(read.success).toBe(true);
    expect(calls.all).toBe(0);
  });

  it("leaves a report of another shape to the tolerant reading, without building the strict one", async () => {
    const { safeParseTolerantReport } = await import("../../src/core/schema.js");
    const read = safeParseTolerantReport({ ...fullReport(), id: "101" });
    expect(read.success).toBe(false);
    expect(calls.all).toBeGreaterThan(0);
    // The strict reading's role actions are an enum of some fifty names; the tolerant one filters
    // strings by hand.
    expect(calls.enums.some((values) => values.includes("DeploymentsManage"))).toBe(false);
    const afterFirst = calls.all;
    safeParseTolerantReport({ ...fullReport(), id: "101" });
    expect(calls.all).toBe(afterFirst);
  });

  it("builds each exported schema once, on its first use, and it behaves as the schema", async () => {
    const { DisconnectInputSchema, RefreshInputSchema } = await import("../../src/core/schema.js");
    expect(calls.all).toBe(0);
    expect(DisconnectInputSchema.safeParse({ sheetName: "Sales" }).success).toBe(true);
    expect(DisconnectInputSchema.safeParse({ sheetName: 3 }).success).toBe(false);
    const built = calls.all;
    expect(built).toBeGreaterThan(0);
    expect(Object.keys(DisconnectInputSchema.shape)).toContain("placementId");
    expect(calls.all).toBe(built);
    expect(RefreshInputSchema.safeParse({ endResultCell: "F9" }).success).toBe(true);
  });
});

describe("lazily", () => {
  it("makes nothing until first used, then answers as what it made, made once", () => {
    const make = vi.fn(() => ({ name: "made", size: 2 }));
    const stand = lazily(make);
    expect(make).not.toHaveBeenCalled();
    expect(stand.name).toBe("made");
    expect("size" in stand).toBe(true);
    expect(Object.keys(stand)).toEqual(["name", "size"]);
    expect({ ...stand }).toEqual({ name: "made", size: 2 });
    expect(make).toHaveBeenCalledTimes(1);
  });

  it("answers instanceof as the object made", () => {
    class Made {}
    const stand = lazily(() => new Made());
    expect(stand instanceof Made).toBe(true);
  });
});
