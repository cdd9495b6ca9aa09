/**
 * Recording a refresh, placing a report, and changing a report's query (platform-api.md part C, as
 * the sandbox serves it): PUT .../refresh and PUT .../connect-workbook address a placement as the
 * disconnect does; POST /sandbox/reports/{id}/change-query turns placements CHANGED. In-process with
 * an injected clock, over loopback HTTP; each report of the seed belongs to one test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../src/core/schema.js";
import { parseSeed } from "../../src/sandbox/seed.js";
import { type RunningSandbox, startSandbox } from "../../src/sandbox/server.js";
import {
  call,
  disconnectPath,
  KEY,
  makeReport,
  OTHER_WB,
  placement,
  reportPath,
  SCOPED_KEY,
  seedWith,
  WB,
} from "../support/sandbox-fixtures.js";

const NOW = "2024-06-01T12:00:00.000Z";
const OLD_SUM = { v: 1, chunks: [{ from: 0, hash: "old-hash" }] };
const NEW_SUM = {
  v: 2,
  chunks: [
    { from: 0, hash: "aa11" },
    { from: 500, hash: "bb22" },
  ],
  payload: "grid:5x7",
};

const written = (id: string, fields: object = {}) => ({
  id,
  sheetId: "s1",
  queryChecksum: "old",
  refreshedAt: "2024-01-01T00:00:00Z",
  refreshedByUserId: 7,
  resultChecksum: OLD_SUM,
  ...fields,
});

const reports: Report[] = [
  // Refresh, each addressing form.
  makeReport(1, [
    placement("Sales", "B2", written("p-1a")),
    placement("Sales", "H2", { sheetId: "s1", queryChecksum: "old" }),
    placement("Q1 Sales", "C3", { sheetName: undefined, anchorCell: undefined }),
    placement("Sales", "B2", { workbookId: OTHER_WB, id: "p-1-other" }),
  ]),
  // Refresh: sheetId narrows, never replaces the name; no match.
  makeReport(2, [placement("Data", "A1", { sheetId: "s-data", queryChecksum: "old" })]),
  // Refresh: malformed checksums change nothing.
  makeReport(3, [placement("Sales", "B2", written("p-3"))]),
  // Refresh with the scoped key (no userId: the report's owner), without a checksum, with an end cell.
  makeReport(4, [placement("Sales", "B2", written("p-4"))]),
  // Refresh of a placement kept in the older top-level fields.
  makeReport(5, undefined, { externalWorkbookId: WB, resultLocation: "Summary!B28", endResultCell: "E40" }),
  // Connect: create, then update by address.
  makeReport(6, [placement("Sales", "B2", written("p-6"))], {
    description: "Definition stays",
    sqlQuery: "SELECT MEASURE(count) FROM orders",
  }),
  // Connect: update by placementId; addressOnly.
  makeReport(7, [
    placement("Regional", "B2", written("p-7", { endResultCell: "G30", workbookName: "Old.xlsx" })),
  ]),
  // Connect: bad inputs.
  makeReport(8, [placement("Sales", "B2", written("p-8"))]),
  // Connect: a disconnected placement re-created (Undo).
  makeReport(10, [
    placement(
      "Sales",
      "B2",
      written("p-10", { endResultCell: "F20", workbookName: "Book.xlsx", host: "EXCEL" }),
    ),
  ]),
  // change-query
  makeReport(9, [
    placement("Sales", "B2", { id: "p-9a", queryChecksum: "q9" }),
    placement("Sales", "H2", { id: "p-9b", queryChecksum: "q9" }),
    placement("Sales", "N2", { id: "p-9c" }),
  ]),
  makeReport(20, [placement("Ops", "A1", { id: "p-20", queryChecksum: "q20" })], {
    deploymentId: 2,
    jsonQuery: null,
  }),
];

const seed = seedWith(reports, {
  users: [
    { id: 7, email: "ann@example.com", firstName: "Ann", picture: null },
    { id: 8, email: "bo@example.com", firstName: "Bo", picture: null },
  ],
  apiKeys: [
    { key: KEY, deployments: "all", userId: 8 },
    { key: SCOPED_KEY, deployments: [1] },
  ],
  cubes: [
    {
      name: "orders",
      deploymentId: 1,
      dimensions: [{ name: "region", title: "Region", type: "string" }],
      measures: [{ name: "count", title: "Orders", aggregation: "count" }],
      rows: [{ region: "EU" }],
    },
  ],
});

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ seed: parseSeed(seed), now: () => Date.parse(NOW) });
});
afterAll(async () => {
  await sandbox?.close();
});

const refreshPath = (id: number, deploymentId = 1) => `${reportPath(id, deploymentId)}/refresh`;

async function get(id: number, deploymentId = 1): Promise<Report> {
  return (await call(sandbox.url, reportPath(id, deploymentId))).json;
}

async function put(path: string, body: unknown, auth?: string) {
  return call(sandbox.url, path, { method: "PUT", body: body as object, ...(auth ? { auth } : {}) });
}

/** A placement of the answer by index, with the fields a refresh records. */
// biome-ignore lint/suspicious/noExplicitAny: placements carry resultChecksum, which Report does not type
const placed = (r: Report, i: number): any => r.externalWorkbookPlacements![i];

describe("PUT .../refresh", () => {
  it("records the refresh on the placement each addressing form names, and only on it", async () => {
    const before = await get(1);
    expect(placed(before, 0).resultChecksum).toEqual(OLD_SUM);

    const byId = await put(refreshPath(1), { placementId: "p-1a", resultChecksum: NEW_SUM });
    expect(byId.status).toBe(200);
    expect(placed(byId.json, 0)).toMatchObject({
      id: "p-1a",
      refreshedAt: NOW,
      refreshedByUserId: 8,
      resultChecksum: NEW_SUM,
      queryChecksum: "q1",
      syncStatus: "UP_TO_DATE",
    });
    expect(byId.json.externalWorkbookPlacements.slice(1)).toEqual(
      before.externalWorkbookPlacements!.slice(1),
    );

    const byName = await put(refreshPath(1), {
      externalWorkbookId: WB,
      sheetName: "Sales",
      anchorCell: "$h$2",
    });
    expect(placed(byName.json, 1)).toMatchObject({
      refreshedAt: NOW,
      syncStatus: "UP_TO_DATE",
      queryChecksum: "q1",
    });
    expect(placed(byName.json, 2).refreshedAt).toBeUndefined();

    const byLocation = await put(refreshPath(1), { externalWorkbookId: WB, resultLocation: "'Q1 Sales'!C3" });
    expect(placed(byLocation.json, 2)).toMatchObject({ refreshedAt: NOW, syncStatus: "UP_TO_DATE" });
    // The same spot in another workbook was not touched.
    expect(placed(byLocation.json, 3)).toEqual(before.externalWorkbookPlacements![3]);
    // The definition is not touched.
    expect({ ...byLocation.json, externalWorkbookPlacements: null }).toEqual({
      ...before,
      externalWorkbookPlacements: null,
    });
  });

  it("a sent sheetId narrows; a sheetId without a sheet name, or no match at all, is 200 with the report unchanged", async () => {
    const before = await get(2);
    for (const body of [
      { externalWorkbookId: WB, sheetName: "Data", anchorCell: "A1", sheetId: "s-other" },
      { externalWorkbookId: WB, sheetId: "s-data", anchorCell: "A1" },
      { externalWorkbookId: WB, sheetName: "Data", anchorCell: "B1" },
      { placementId: "nope" },
      {},
    ]) {
      const answer = await put(refreshPath(2), body);
      expect(answer.status, JSON.stringify(body)).toBe(200);
      expect(answer.json).toEqual(before);
    }
    const empty = await call(sandbox.url, refreshPath(2), { method: "PUT" });
    expect(empty.json).toEqual(before);
    const narrowed = await put(refreshPath(2), {
      externalWorkbookId: WB,
      sheetName: "Data",
      anchorCell: "A1",
      sheetId: "s-data",
    });
    expect(placed(narrowed.json, 0)).toMatchObject({ refreshedAt: NOW, syncStatus: "UP_TO_DATE" });
  });

  it.each([
    { v: 0, chunks: [] },
    { v: 1.5, chunks: [] },
    { v: 1 },
    { v: 1, chunks: [{ from: -1, hash: "a" }] },
    { v: 1, chunks: [{ from: 0, hash: "" }] },
    { v: 1, chunks: [{ from: 0, hash: "x".repeat(65) }] },
    { v: 1, chunks: Array.from({ length: 2001 }, (_, i) => ({ from: i, hash: "h" })) },
    { v: 1, chunks: [], payload: "p".repeat(129) },
    { v: 1, chunks: [], payload: "" },
    "not an object",
  ])("a malformed resultChecksum is 400 and changes nothing: %j", async (resultChecksum) => {
    const before = await get(3);
    const answer = await put(refreshPath(3), { placementId: "p-3", resultChecksum });
    expect(answer.status).toBe(400);
    expect(answer.json.message).toMatch(/resultChecksum/);
    expect(await get(3)).toEqual(before);
  });

  it("without a userId on the key the report's owner refreshed; no checksum clears the old one; endResultCell is recorded", async () => {
    const answer = await put(
      refreshPath(4),
      { placementId: "p-4", endResultCell: "$f$20" },
      `Bearer ${SCOPED_KEY}`,
    );
    expect(placed(answer.json, 0)).toMatchObject({
      refreshedByUserId: 7,
      resultChecksum: null,
      endResultCell: "F20",
      syncStatus: "UP_TO_DATE",
    });
    expect((await put(refreshPath(4), { placementId: "p-4", endResultCell: "F2O" })).status).toBe(400);
  });

  it("a placement kept in the older top-level fields is recorded as a placement of the list", async () => {
    const answer = await put(refreshPath(5), {
      externalWorkbookId: WB,
      resultLocation: "Summary!B28",
      resultChecksum: NEW_SUM,
    });
    expect(answer.json.externalWorkbookPlacements).toEqual([
      expect.objectContaining({
        workbookId: WB,
        resultLocation: "Summary!B28",
        refreshedAt: NOW,
        resultChecksum: NEW_SUM,
      }),
    ]);
  });

  it("is 401 without a key, 403 for a key scoped elsewhere, 404 for an unknown report", async () => {
    expect((await call(sandbox.url, refreshPath(1), { method: "PUT", auth: null })).status).toBe(401);
    expect((await put(refreshPath(20, 2), {}, `Bearer ${SCOPED_KEY}`)).status).toBe(403);
    expect((await put(refreshPath(99), {})).status).toBe(404);
    expect((await put(refreshPath(20, 1), {})).status).toBe(404);
  });
});

describe("PUT .../connect-workbook", () => {
  const connectPath = disconnectPath;

  it("creates a placement at a new spot, then updates the one at the same workbook + sheet + anchor", async () => {
    const before = await get(6);
    const created = await put(connectPath(6), {
      externalWorkbookId: WB,
      resultLocation: "'Q2 Sales'!D4",
      sheetId: "s7",
      endResultCell: "H10",
      workbookName: "Book.xlsx",
      host: "EXCEL",
      resultChecksum: NEW_SUM,
    });
    expect(created.status).toBe(200);
    expect(created.json.externalWorkbookPlacements).toHaveLength(2);
    const fresh = placed(created.json, 1);
    expect(fresh).toMatchObject({
      workbookId: WB,
      resultLocation: "'Q2 Sales'!D4",
      sheetName: "Q2 Sales",
      anchorCell: "D4",
      sheetId: "s7",
      endResultCell: "H10",
      workbookName: "Book.xlsx",
      host: "EXCEL",
      placedAt: NOW,
      placedByUserId: 8,
      refreshedAt: NOW,
      refreshedByUserId: 8,
      queryChecksum: "q6",
      syncStatus: "UP_TO_DATE",
      resultChecksum: NEW_SUM,
    });
    expect(fresh.id).toMatch(/^plc-/);
    // The definition is not touched.
    expect(created.json).toMatchObject({
      name: before.name,
      jsonQuery: before.jsonQuery,
      sqlQuery: before.sqlQuery,
      description: "Definition stays",
    });

    const again = await put(connectPath(6), {
      externalWorkbookId: WB,
      resultLocation: "'Q2 Sales'!D4",
      endResultCell: "H12",
    });
    expect(again.json.externalWorkbookPlacements).toHaveLength(2);
    expect(placed(again.json, 1)).toMatchObject({
      id: fresh.id,
      endResultCell: "H12",
      resultChecksum: null,
      placedAt: NOW,
    });
    // The first placement is the one at Sales!B2: addressed by sheetName + anchorCell, it is updated too.
    const first = await put(connectPath(6), {
      externalWorkbookId: WB,
      resultLocation: "Sales!B2",
      resultChecksum: NEW_SUM,
    });
    expect(first.json.externalWorkbookPlacements).toHaveLength(2);
    expect(placed(first.json, 0)).toMatchObject({
      id: "p-6",
      resultChecksum: NEW_SUM,
      syncStatus: "UP_TO_DATE",
    });
  });

  it("updates the placement placementId names; addressOnly changes only the address and keeps the fingerprint", async () => {
    const moved = await put(connectPath(7), {
      placementId: "p-7",
      externalWorkbookId: WB,
      resultLocation: "Regions!B2",
      sheetName: "Regions",
      addressOnly: true,
    });
    expect(moved.status).toBe(200);
    expect(placed(moved.json, 0)).toEqual({
      ...placement("Regional", "B2", written("p-7", { endResultCell: "G30", workbookName: "Old.xlsx" })),
      resultLocation: "Regions!B2",
      sheetName: "Regions",
      anchorCell: "B2",
      syncStatus: "CHANGED",
    });
    const rewritten = await put(connectPath(7), {
      placementId: "p-7",
      externalWorkbookId: WB,
      resultLocation: "Regions!C3",
      resultChecksum: NEW_SUM,
    });
    expect(placed(rewritten.json, 0)).toMatchObject({
      anchorCell: "C3",
      resultChecksum: NEW_SUM,
      refreshedAt: NOW,
      queryChecksum: "q7",
      syncStatus: "UP_TO_DATE",
    });
  });

  it("an unknown placementId is 404; missing required fields, addressOnly without placementId or a bad checksum are 400", async () => {
    const before = await get(8);
    const unknown = await put(connectPath(8), {
      placementId: "nope",
      externalWorkbookId: WB,
      resultLocation: "Sales!B2",
    });
    expect(unknown.status).toBe(404);
    for (const body of [
      { resultLocation: "Sales!B2" },
      { externalWorkbookId: WB },
      { externalWorkbookId: WB, resultLocation: "B2" },
      { externalWorkbookId: WB, resultLocation: "Sales!B2", addressOnly: true },
      { externalWorkbookId: WB, resultLocation: "Sales!B2", resultChecksum: { v: 0, chunks: [] } },
      { externalWorkbookId: WB, resultLocation: "Sales!B2", host: "NUMBERS" },
    ]) {
      const answer = await put(connectPath(8), body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(typeof answer.json.message).toBe("string");
    }
    expect(await get(8)).toEqual(before);
  });
});

describe("PUT .../connect-workbook after a DELETE (the add-in's Undo)", () => {
  it("re-creates the placement with the address, extent and checksum sent; a second create at the same spot updates it", async () => {
    const before = placed(await get(10), 0);
    const removed = await call(sandbox.url, disconnectPath(10), {
      method: "DELETE",
      body: { placementId: "p-10" },
    });
    expect(removed.json.externalWorkbookPlacements).toEqual([]);
    const body = {
      externalWorkbookId: WB,
      resultLocation: before.resultLocation,
      sheetId: before.sheetId,
      sheetName: before.sheetName,
      anchorCell: before.anchorCell,
      endResultCell: before.endResultCell,
      workbookName: before.workbookName,
      host: before.host,
      resultChecksum: before.resultChecksum,
    };
    const restored = await put(disconnectPath(10), body);
    expect(restored.status).toBe(200);
    expect(restored.json.externalWorkbookPlacements).toHaveLength(1);
    const back = placed(restored.json, 0);
    // Everything sent comes back; a new id, and the placement is recorded as written now.
    const {
      id,
      placedAt,
      placedByUserId,
      refreshedAt,
      refreshedByUserId,
      queryChecksum,
      syncStatus,
      ...rest
    } = back;
    const {
      id: _i,
      placedAt: _p,
      refreshedAt: _r,
      refreshedByUserId: _u,
      queryChecksum: _q,
      syncStatus: _s,
      ...kept
    } = before;
    expect(rest).toEqual(kept);
    expect(id).not.toBe("p-10");
    expect({ placedAt, refreshedAt, queryChecksum, syncStatus }).toEqual({
      placedAt: NOW,
      refreshedAt: NOW,
      queryChecksum: "q10",
      syncStatus: "UP_TO_DATE",
    });
    // The same body again names the spot now taken: it updates that placement, never a second one.
    const again = await put(disconnectPath(10), { ...body, resultChecksum: NEW_SUM });
    expect(again.json.externalWorkbookPlacements).toHaveLength(1);
    expect(placed(again.json, 0)).toMatchObject({ id, resultChecksum: NEW_SUM });
  });
});

describe("POST /sandbox/reports/{id}/change-query", () => {
  const changePath = (id: number) => `/sandbox/reports/${id}/change-query`;

  it("sets a new currentQueryChecksum: placements written before turn CHANGED until refreshed", async () => {
    const before = await get(9);
    expect(before.externalWorkbookPlacements!.map((p) => p.syncStatus)).toEqual([
      "UP_TO_DATE",
      "UP_TO_DATE",
      "UNKNOWN",
    ]);
    const changed = await call(sandbox.url, changePath(9), { method: "POST" });
    expect(changed.status).toBe(200);
    expect(changed.json.currentQueryChecksum).not.toBe("q9");
    expect(changed.json.version).toBe(before.version! + 1);
    const after = await get(9);
    expect(after.externalWorkbookPlacements!.map((p) => p.syncStatus)).toEqual([
      "CHANGED",
      "CHANGED",
      "UNKNOWN",
    ]);
    const listed = await call(sandbox.url, "/api/v1/deployments/1/reports?first=100");
    const inList = listed.json.items.find((r: Report) => r.id === 9);
    expect(inList.externalWorkbookPlacements.map((p: { syncStatus: string }) => p.syncStatus)).toEqual([
      "CHANGED",
      "CHANGED",
      "UNKNOWN",
    ]);
    const refreshed = await put(refreshPath(9), { placementId: "p-9b" });
    expect(
      refreshed.json.externalWorkbookPlacements.map((p: { syncStatus: string }) => p.syncStatus),
    ).toEqual(["CHANGED", "UP_TO_DATE", "UNKNOWN"]);
  });

  it("with {jsonQuery} checks it against the deployment's cubes, stores it and its SQL", async () => {
    const bad = await call(sandbox.url, changePath(9), {
      method: "POST",
      body: { jsonQuery: { measures: ["orders.nope"] } },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("orders.nope");
    const good = await call(sandbox.url, changePath(9), {
      method: "POST",
      body: { jsonQuery: { dimensions: ["orders.region"], measures: ["orders.count"] } },
    });
    expect(good.status).toBe(200);
    expect(JSON.parse(good.json.jsonQuery)).toEqual({
      dimensions: ["orders.region"],
      measures: ["orders.count"],
    });
    expect(good.json.sqlQuery).toMatch(/^SELECT region, MEASURE\(count\) AS count FROM orders/);
  });

  it("needs a management key with access to the report's deployment", async () => {
    expect((await call(sandbox.url, changePath(9), { method: "POST", auth: null })).status).toBe(401);
    expect(
      (await call(sandbox.url, changePath(20), { method: "POST", auth: `Bearer ${SCOPED_KEY}` })).status,
    ).toBe(403);
    expect((await call(sandbox.url, changePath(404), { method: "POST" })).status).toBe(404);
    expect((await get(20, 2)).currentQueryChecksum).toBe("q20");
  });
});
