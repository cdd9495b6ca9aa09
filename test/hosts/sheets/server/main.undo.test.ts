/**
 * The add-on menu's "Undo disconnect" and the sidebar's `connectPlacement`, in the built Code.js
 * under the Apps Script fakes. A toast holds text only, so the menu's Undo is a menu item: the
 * disconnect's toast says where it is, and the record it restores is kept in the user's cache (in
 * parts, each within CacheService's 100 KB a value). The tenant keeps its reports and applies
 * DELETE and PUT connect-workbook with the sandbox's own rules (the service's side).
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Report } from "../../../../src/core/schema.js";
import { withoutPlacement } from "../../../../src/sandbox/placement-rules.js";
import { connectPlacement } from "../../../../src/sandbox/placing.js";
import { callOk, type FetchAnswer, type FetchedRequest, type World } from "../../../support/apps-script.js";
import {
  configured,
  json,
  PIPELINE,
  REVENUE,
  requireBuiltCodeJs,
  SPREADSHEET_ID,
  TENANT,
} from "../../../support/sheets-tenant.js";

beforeAll(requireBuiltCodeJs);

const CHECKSUM = {
  v: 1,
  // 2,000 chunks: larger than one cache value once written out.
  chunks: Array.from({ length: 2000 }, (_, i) => ({
    from: i * 25,
    hash: `${"0123456789abcdef".repeat(2)}`.slice(0, 32),
  })),
  payload: "r=50000;c=6",
};

/** A tenant that keeps its reports: list, disconnect and connect-workbook change them. */
function statefulTenant(start: Report[]) {
  const state = { reports: structuredClone(start), fail: null as FetchAnswer | null };
  let n = 0;
  const fetch = (request: FetchedRequest): FetchAnswer => {
    const url = new URL(request.url);
    if (request.method === "GET" && url.pathname === "/api/v1/deployments/7/reports") {
      const wb = url.searchParams.get("externalWorkbookId");
      const items = state.reports.filter((r) =>
        (r.externalWorkbookPlacements ?? []).some((p) => p.workbookId === wb),
      );
      return json(200, { items, pageInfo: { hasNextPage: false } });
    }
    const path = /^\/api\/v1\/deployments\/7\/reports\/(\d+)\/connect-workbook$/.exec(url.pathname);
    if (path) {
      const current = state.reports.find((r) => r.id === Number(path[1]));
      if (!current) return json(404, { message: "No such report." });
      const body = JSON.parse(request.payload ?? "{}");
      let next: Report;
      if (request.method === "DELETE") next = withoutPlacement(current, body);
      else if (request.method === "PUT") {
        if (state.fail) return state.fail;
        next = connectPlacement(current, body, {
          now: "2026-11-27T10:00:00.000Z",
          userId: 11,
          newId: () => `plc-new-${++n}`,
        });
      } else return json(405, { message: "no" });
      state.reports = state.reports.map((r) => (r === current ? next : r));
      return json(200, next);
    }
    return json(404, { message: `no route ${request.method} ${url.pathname}` });
  };
  return { state, fetch };
}

function withChecksum(): Report[] {
  const revenue = structuredClone(REVENUE) as unknown as Report;
  revenue.externalWorkbookPlacements![0]!.resultChecksum = CHECKSUM;
  return [revenue, structuredClone(PIPELINE) as unknown as Report];
}

function setup(reports: Report[] = withChecksum()): {
  world: World;
  tenant: ReturnType<typeof statefulTenant>;
} {
  const tenant = statefulTenant(reports);
  const world = configured(tenant.fetch);
  return { world, tenant };
}

describe("Undo disconnect (add-on menu)", () => {
  it("is an item of the add-on menu", () => {
    const { world } = setup();
    world.global.onOpen();
    expect(world.menus[0]?.items).toContainEqual({
      caption: "Undo disconnect",
      functionName: "undoDisconnect",
    });
  });

  it("re-creates exactly the placement the menu's last disconnect removed, checksum included, and toasts it", () => {
    const { world, tenant } = setup();
    const before = tenant.state.reports[0]!.externalWorkbookPlacements![0]!;
    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    expect(world.toasts.at(-1)?.message).toMatch(
      /^Disconnected Revenue by Region from .*; the cells keep their values\. To undo it: Extensions > Reporting Platform > Undo disconnect\.$/,
    );
    expect(
      tenant.state.reports[0]!.externalWorkbookPlacements!.some(
        (p) => p.anchorCell === "B2" && p.workbookId === SPREADSHEET_ID,
      ),
    ).toBe(false);

    world.requests.length = 0;
    world.global.undoDisconnect();
    expect(world.requests.map((r) => `${r.method} ${r.url}`)).toEqual([
      `GET ${TENANT}/api/v1/deployments/7/reports?externalWorkbookId=${SPREADSHEET_ID}&first=100`,
      `PUT ${TENANT}/api/v1/deployments/7/reports/42/connect-workbook`,
    ]);
    const sent = JSON.parse(world.requests[1]!.payload!);
    expect(sent).not.toHaveProperty("placementId");
    expect(sent.resultChecksum).toEqual(CHECKSUM);
    const back = tenant.state.reports[0]!.externalWorkbookPlacements!.find(
      (p) => p.workbookId === SPREADSHEET_ID && p.anchorCell === "B2",
    )!;
    const {
      id: _a,
      placedAt: _b,
      refreshedAt: _c,
      queryChecksum: _d,
      refreshedByUserId: _e,
      placedByUserId: _f,
      syncStatus: _g,
      ...restored
    } = back;
    const { id: _h, syncStatus: _i, ...original } = before;
    // A placement stored without a host is created with host null: the same "not said".
    expect(restored).toEqual({ ...original, host: original.host ?? null });
    expect(world.toasts.at(-1)?.message).toBe(
      "Undone: Revenue by Region is placed at 'Q1 Sales'!B2:F10 again.",
    );

    // Once: the record is gone.
    world.global.undoDisconnect();
    expect(world.toasts.at(-1)?.message).toMatch(/^Nothing to undo/);
  });

  it("says why not when the spot is taken again, and sends no PUT", () => {
    const { world, tenant } = setup();
    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    tenant.state.reports = tenant.state.reports.map((r) =>
      r.id === 42
        ? connectPlacement(
            r,
            { externalWorkbookId: SPREADSHEET_ID, resultLocation: "'Q1 Sales'!B2" },
            { now: "2026-11-27T10:00:00.000Z", userId: 11 },
          )
        : r,
    );
    world.requests.length = 0;
    world.global.undoDisconnect();
    expect(world.requests.map((r) => r.method)).toEqual(["GET"]);
    expect(world.toasts.at(-1)?.message).toContain("is placed at 'Q1 Sales'!B2:F10 again already");
  });

  it("keeps the Undo after a failure that may pass, and tries again", () => {
    const { world, tenant } = setup();
    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    tenant.state.fail = json(503, { message: "Maintenance" });
    world.global.undoDisconnect();
    expect(world.toasts.at(-1)?.message).toMatch(/^Not undone: /);
    tenant.state.fail = null;
    world.global.undoDisconnect();
    expect(world.toasts.at(-1)?.message).toBe(
      "Undone: Revenue by Region is placed at 'Q1 Sales'!B2:F10 again.",
    );
  });

  it("with nothing disconnected from the menu, says so and sends nothing", () => {
    const { world } = setup();
    world.global.undoDisconnect();
    expect(world.requests).toEqual([]);
    expect(world.toasts.at(-1)?.message).toMatch(
      /^Nothing to undo: no report was disconnected from this menu/,
    );
  });

  it("keeps the record in the user's cache for 30 minutes, each part within a cache value's limit", () => {
    const { world } = setup();
    world.select("Q1 Sales", "D7");
    world.global.disconnectReportHere();
    const parts = [...world.cache.entries.keys()].filter((k) =>
      k.startsWith(`reportingPlatform.undo.${SPREADSHEET_ID}.`),
    );
    expect(parts.length).toBeGreaterThan(1);
    world.clock.now += 31 * 60_000;
    world.global.undoDisconnect();
    expect(world.toasts.at(-1)?.message).toMatch(/^Nothing to undo/);
  });
});

describe("connectPlacement (the sidebar's connect-workbook)", () => {
  it("sends the body, checked, and answers the report", () => {
    const { world, tenant } = setup();
    const report = callOk<Report>(world, "connectPlacement", 7, 42, {
      placementId: "plc-42-a",
      externalWorkbookId: SPREADSHEET_ID,
      resultLocation: "'Q1 Sales (2025)'!B2:F10",
      sheetName: "Q1 Sales (2025)",
      anchorCell: "B2",
      sheetId: "123456789",
      addressOnly: true,
    });
    expect(report.externalWorkbookPlacements![0]).toMatchObject({
      id: "plc-42-a",
      sheetName: "Q1 Sales (2025)",
    });
    expect(tenant.state.reports[0]!.externalWorkbookPlacements![0]!.resultChecksum).toEqual(CHECKSUM);
  });

  it("refuses a malformed body with a clear message and sends nothing", () => {
    const { world } = setup();
    const answer = world.global.connectPlacement(7, 42, { resultLocation: 5 }) as {
      ok: boolean;
      error: { message: string };
    };
    expect(answer.ok).toBe(false);
    expect(answer.error.message).toMatch(/^The add-in could not read the placement/);
    expect(world.requests).toEqual([]);
  });
});
