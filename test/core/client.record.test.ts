/**
 * The platform client's two writes beside the disconnect (platform-api.md, "Recording a refresh" and
 * "Placing a report"): PUT refresh and PUT connect-workbook, their inputs checked before anything
 * is sent, and the checksum read back tolerantly.
 */
import { describe, expect, it } from "vitest";
import {
  type ConnectWorkbookInput,
  type ResultChecksum,
  TolerantReportSchema,
} from "../../src/core/index.js";
import { failure, json, loopbackService, TOKEN } from "../support/platform-service.js";
import { fullReport, placement } from "./fixtures.js";

const service = loopbackService();
const { seen } = service;

const CHECKSUM: ResultChecksum = { v: 1, chunks: [{ from: 0, hash: "ab12" }], payload: "r=1;c=1" };

describe("recordRefresh", () => {
  it("PUTs the placement's address and checksum to .../refresh and reads the report back", async () => {
    service.handler = (_req, res) =>
      json(
        res,
        200,
        fullReport({ externalWorkbookPlacements: [placement({ id: "p1", resultChecksum: CHECKSUM })] }),
      );
    const report = await service
      .client()
      .recordRefresh(1, 101, { placementId: "p1", resultChecksum: CHECKSUM, endResultCell: "F20" });
    expect(seen[0]?.method).toBe("PUT");
    expect(seen[0]?.url).toBe("/api/v1/deployments/1/reports/101/refresh");
    expect(seen[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(JSON.parse(seen[0]?.body ?? "")).toEqual({
      placementId: "p1",
      resultChecksum: CHECKSUM,
      endResultCell: "F20",
    });
    expect(report.externalWorkbookPlacements?.[0]?.resultChecksum).toEqual(CHECKSUM);
  });

  it.each([
    ["a version below 1", { v: 0, chunks: [] }],
    [
      "more than 2,000 chunks",
      { v: 1, chunks: Array.from({ length: 2_001 }, (_, i) => ({ from: i, hash: "a" })) },
    ],
    ["a hash over 64 characters", { v: 1, chunks: [{ from: 0, hash: "a".repeat(65) }] }],
    ["a negative row", { v: 1, chunks: [{ from: -1, hash: "a" }] }],
  ])("refuses a checksum with %s before sending anything", async (_what, resultChecksum) => {
    const error = await failure(
      service
        .client()
        .recordRefresh(1, 101, { placementId: "p1", resultChecksum: resultChecksum as ResultChecksum }),
    );
    expect(error.kind).toBe("bad-request");
    expect(seen).toHaveLength(0);
  });
});

describe("connectReportToWorkbook", () => {
  const input: ConnectWorkbookInput = {
    externalWorkbookId: "wb-1",
    resultLocation: "Sales!B2",
    sheetId: "s1",
    sheetName: "Sales",
    anchorCell: "B2",
    endResultCell: "F20",
    workbookName: "Budget.xlsx",
    host: "EXCEL",
    resultChecksum: CHECKSUM,
  };

  it("PUTs the placement to .../connect-workbook", async () => {
    service.handler = (_req, res) => json(res, 200, fullReport());
    await service.client().connectReportToWorkbook(1, 101, input);
    expect(seen[0]?.method).toBe("PUT");
    expect(seen[0]?.url).toBe("/api/v1/deployments/1/reports/101/connect-workbook");
    expect(JSON.parse(seen[0]?.body ?? "")).toEqual(input);
  });

  it("needs the workbook and the location: without them nothing is sent", async () => {
    const error = await failure(
      service.client().connectReportToWorkbook(1, 101, { ...input, resultLocation: "" }),
    );
    expect(error.kind).toBe("bad-request");
    expect(error.message).toContain("resultLocation");
    expect(seen).toHaveLength(0);
  });
});

describe("reading resultChecksum", () => {
  it("a checksum the add-in cannot read is null (cannot tell), and the placement is still listed", () => {
    const report = TolerantReportSchema.parse(
      fullReport({
        externalWorkbookPlacements: [
          placement({ id: "p1", resultChecksum: { v: "x", chunks: "nope" } as never }),
          placement({ id: "p2", resultChecksum: CHECKSUM }),
        ],
      }),
    );
    expect(report.externalWorkbookPlacements?.map((p) => p.resultChecksum)).toEqual([null, CHECKSUM]);
  });
});
