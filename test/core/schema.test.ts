import { describe, expect, it } from "vitest";
import {
  ChatMessageSchema,
  ChatRequestSchema,
  DisconnectInputSchema,
  ReportPlacementSchema,
  ReportSchema,
  TolerantReportSchema,
} from "../../src/core/index.js";
import { fullReport, placement } from "./fixtures.js";

const REQUIRED_REPORT_FIELDS = [
  "id",
  "publicId",
  "deploymentId",
  "userId",
  "user",
  "name",
  "refreshedByUser",
  "createdAt",
  "updatedAt",
  "type",
] as const;

describe("Report (platform-api.md, Resources)", () => {
  it("parses a full Report as the spec draws it", () => {
    const parsed = ReportSchema.parse(fullReport());
    expect(parsed.name).toBe("Revenue by region");
    expect(parsed.externalWorkbookPlacements).toHaveLength(2);
  });

  it("parses a Report with only its required fields", () => {
    const r = fullReport();
    const minimal = Object.fromEntries(REQUIRED_REPORT_FIELDS.map((k) => [k, r[k]]));
    expect(ReportSchema.safeParse(minimal).success).toBe(true);
  });

  it.each(REQUIRED_REPORT_FIELDS)("fails without the required field %s, naming it", (field) => {
    const r: Record<string, unknown> = { ...fullReport() };
    delete r[field];
    const result = ReportSchema.safeParse(r);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toContain(field);
  });

  it("accepts null in every nullable field", () => {
    const nullable = [
      "canEdit",
      "canManage",
      "currentQueryChecksum",
      "description",
      "endResultCell",
      "externalWorkbookId",
      "externalWorkbookPlacements",
      "folderId",
      "jsonQuery",
      "meta",
      "pivotItems",
      "refreshedBy",
      "resultLocation",
      "rolesWithAccess",
      "source",
      "sqlQuery",
      "title",
      "version",
      "workbookId",
    ];
    const r = { ...fullReport(), ...Object.fromEntries(nullable.map((k) => [k, null])) };
    expect(ReportSchema.safeParse(r).success).toBe(true);
  });

  it.each(["createdBy", "folderPath", "id", "name", "user"])(
    "refuses null in the non-nullable field %s",
    (field) => {
      expect(ReportSchema.safeParse({ ...fullReport(), [field]: null }).success).toBe(false);
    },
  );

  it("requires publicId to be exactly 12 letters or digits", () => {
    expect(ReportSchema.safeParse(fullReport({ publicId: "AbC123dEf45" })).success).toBe(false);
    expect(ReportSchema.safeParse(fullReport({ publicId: "AbC123dEf4567" })).success).toBe(false);
    expect(ReportSchema.safeParse(fullReport({ publicId: "AbC123dEf45-" })).success).toBe(false);
    expect(ReportSchema.safeParse(fullReport({ publicId: "000000000000" })).success).toBe(true);
  });

  it("takes createdAt and updatedAt as a date or a date-time string", () => {
    for (const value of ["2026-11-22", "2026-11-22T10:00:00Z", "2026-11-22T10:00:00.123+02:00"]) {
      expect(ReportSchema.safeParse(fullReport({ createdAt: value })).success).toBe(true);
    }
    expect(ReportSchema.safeParse(fullReport({ createdAt: "yesterday" })).success).toBe(false);
  });

  it("accepts and ignores unknown extra fields; reads resultChecksum, which the add-in uses for hand edits", () => {
    const r = fullReport();
    const withExtra = {
      ...r,
      brandNewField: 1,
      externalWorkbookPlacements: [
        { ...placement(), resultChecksum: { v: 1, chunks: [{ from: 0, hash: "x" }] } },
      ],
    };
    const parsed = ReportSchema.parse(withExtra);
    expect(parsed).not.toHaveProperty("brandNewField");
    expect(parsed.externalWorkbookPlacements?.[0]?.resultChecksum).toEqual({
      v: 1,
      chunks: [{ from: 0, hash: "x" }],
    });
  });

  it("fails on unknown enum values in the strict reading", () => {
    expect(ReportSchema.safeParse(fullReport({ type: "DASHBOARD" as never })).success).toBe(false);
    expect(ReportSchema.safeParse(fullReport({ source: "NUMBERS" as never })).success).toBe(false);
    const p = { ...placement(), syncStatus: "STALE" };
    const result = ReportSchema.safeParse(fullReport({ externalWorkbookPlacements: [p as never] }));
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path.join(".")).toBe("externalWorkbookPlacements.0.syncStatus");
    expect(
      ReportSchema.safeParse(
        fullReport({ rolesWithAccess: [{ id: 1, name: "x", actions: ["ReportRead", "Teleport" as never] }] }),
      ).success,
    ).toBe(false);
  });

  it("reads unknown enum values as unknown in the tolerant reading the client uses", () => {
    const r = fullReport({
      source: "NUMBERS" as never,
      externalWorkbookPlacements: [
        { ...placement(), syncStatus: "STALE" as never, host: "NUMBERS" as never },
      ],
      rolesWithAccess: [{ id: 1, name: "x", actions: ["ReportRead", "Teleport" as never] }],
    });
    const parsed = TolerantReportSchema.parse(r);
    expect(parsed.source).toBeNull();
    expect(parsed.externalWorkbookPlacements?.[0]?.syncStatus).toBe("UNKNOWN");
    expect(parsed.externalWorkbookPlacements?.[0]?.host).toBeNull();
    expect(parsed.rolesWithAccess?.[0]?.actions).toEqual(["ReportRead"]);
  });

  it("still fails on a wrong type in the tolerant reading", () => {
    const p = { ...placement(), syncStatus: 3 };
    expect(
      TolerantReportSchema.safeParse(fullReport({ externalWorkbookPlacements: [p as never] })).success,
    ).toBe(false);
    expect(TolerantReportSchema.safeParse({ ...fullReport(), id: "101" }).success).toBe(false);
  });
});

describe("ReportPlacement (platform-api.md, Resources)", () => {
  it("needs workbookId and resultLocation, and nothing else", () => {
    expect(ReportPlacementSchema.safeParse({ workbookId: "w", resultLocation: "A!B2" }).success).toBe(true);
    expect(ReportPlacementSchema.safeParse({ workbookId: "w" }).error?.issues[0]?.path).toEqual([
      "resultLocation",
    ]);
    expect(ReportPlacementSchema.safeParse({ resultLocation: "A!B2" }).error?.issues[0]?.path).toEqual([
      "workbookId",
    ]);
  });

  it("takes the enums platform-api.md lists", () => {
    for (const s of ["UP_TO_DATE", "CHANGED", "UNKNOWN"]) {
      expect(ReportPlacementSchema.safeParse({ ...placement(), syncStatus: s }).success).toBe(true);
    }
    for (const h of ["GOOGLE_SHEETS", "EXCEL"]) {
      expect(ReportPlacementSchema.safeParse({ ...placement(), host: h }).success).toBe(true);
    }
  });
});

describe("DisconnectInput (platform-api.md, the disconnect input)", () => {
  it("has every field optional, each a string or null", () => {
    expect(DisconnectInputSchema.safeParse({}).success).toBe(true);
    expect(
      DisconnectInputSchema.safeParse({
        placementId: null,
        externalWorkbookId: "w",
        sheetName: "S",
        anchorCell: "B2",
        resultLocation: null,
        sheetId: null,
      }).success,
    ).toBe(true);
    expect(DisconnectInputSchema.safeParse({ sheetId: 5 }).success).toBe(false);
  });
});

describe("Chat shapes (platform-api.md, Agent chat)", () => {
  it("needs input-side sessionSettings and takes a chatId", () => {
    expect(ChatRequestSchema.safeParse({ input: "hi", sessionSettings: { externalId: "ann" } }).success).toBe(
      true,
    );
    expect(ChatRequestSchema.safeParse({ input: "hi" }).success).toBe(false);
    expect(
      ChatRequestSchema.safeParse({ input: "hi", chatId: "c1", sessionSettings: { externalId: "ann" } })
        .success,
    ).toBe(true);
  });

  it("takes a messageId only as a millisecond timestamp then -message", () => {
    const base = { input: "hi", sessionSettings: { externalId: "ann" } };
    expect(ChatRequestSchema.safeParse({ ...base, messageId: "1732230000000-message" }).success).toBe(true);
    expect(ChatRequestSchema.safeParse({ ...base, messageId: "abc-message" }).success).toBe(false);
  });

  it("keeps the fields clients use on a message and accepts others", () => {
    const m = ChatMessageSchema.parse({
      id: "m1",
      role: "assistant",
      content: "x",
      graphPath: ["final"],
      state: { chatId: "c1" },
      toolCall: { name: "q" },
    });
    expect(m.graphPath).toEqual(["final"]);
    expect(m.state?.chatId).toBe("c1");
    expect(m).toHaveProperty("toolCall");
  });
});
