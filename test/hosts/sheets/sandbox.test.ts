/**
 * The same built Code.js, driven through its global functions, against the real sandbox over
 * loopback: UrlFetchApp's fake makes each request for real (synchronously, in a child process).
 * The spreadsheet is the demo's Google Sheets file ("Board Pack 2024"), where deployment 1's
 * "Revenue by Region" is placed on KPIs!A1:E7.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_AGENT_KEY, DEMO_API_KEY, DEMO_SCIM_TOKEN, DEMO_SCOPED_KEY } from "../../../src/sandbox/demo.js";
import { OTHER_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";
import { callError, callOk, loadAppsScript, type World } from "../../support/apps-script.js";
import { forwardTo } from "../../support/apps-script-forward.js";
import { type SpawnedSandbox, spawnSandbox } from "../../support/spawn-sandbox.js";

let sandbox: SpawnedSandbox;

beforeAll(async () => {
  sandbox = await spawnSandbox();
});

afterAll(async () => {
  await sandbox?.stop();
});

const SHEETS = OTHER_WORKBOOK.sheets.map((s) => ({ id: Number(s.id), name: s.name, cell: "A1" }));

function boardPack(settings: Record<string, unknown> = {}): World {
  const world = loadAppsScript({
    spreadsheetId: OTHER_WORKBOOK.id,
    spreadsheetName: OTHER_WORKBOOK.name,
    sheets: SHEETS,
    fetch: forwardTo(),
  });
  callOk(world, "saveSettings", {
    tenantUrl: sandbox.url,
    deploymentId: 1,
    apiKey: DEMO_API_KEY,
    scimToken: DEMO_SCIM_TOKEN,
    chatUrl: `${sandbox.url}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`,
    agentApiKey: DEMO_AGENT_KEY,
    externalId: "ann.lee@example.com",
    ...settings,
  });
  return world;
}

interface Snapshot {
  context: { workbookId: string; sheetId: string; sheetName: string; cell: string };
  reports: {
    id: number;
    name: string;
    externalWorkbookPlacements?: { workbookId: string; sheetName?: string }[];
  }[];
  problems: string[];
}

describe("against the sandbox", () => {
  it("lists deployments and this spreadsheet's placements", () => {
    const world = boardPack();
    expect(callOk<{ id: number }[]>(world, "listDeployments").map((d) => d.id)).toEqual([1, 2]);
    world.select("KPIs", "C3");
    const snapshot = callOk<Snapshot>(world, "refreshPane");
    expect(snapshot.context).toMatchObject({
      workbookId: OTHER_WORKBOOK.id,
      sheetId: "184302216",
      sheetName: "KPIs",
      cell: "C3",
    });
    expect(snapshot.reports.map((r) => r.name)).toContain("Revenue by Region");
    expect(snapshot.problems).toEqual([]);
  });

  // Before the disconnect below, which removes this placement.
  it("Refresh: the placement's cells written from the sandbox's data API, then the service says Up to date", () => {
    const world = boardPack();
    let request: Record<string, unknown> | null = { runId: "run-sandbox-0001", keys: ["p:plc-101-board"] };
    const outcomes: { status: string; message: string }[] = [];
    while (request) {
      const answer: {
        outcomes: { status: string; message: string }[];
        question: string | null;
        next: Record<string, unknown> | null;
      } = callOk(world, "refreshPlacementsStep", request);
      outcomes.push(...answer.outcomes);
      expect(answer.question).toBeNull();
      request = answer.next;
    }
    expect(outcomes).toEqual([
      expect.objectContaining({
        status: "refreshed",
        message: expect.stringMatching(/^Refreshed Revenue by Region at KPIs!A1:/),
      }),
    ]);
    expect(world.valuesOf("KPIs", "A1")[0]![0]).toEqual(expect.any(String));
    expect(world.flushes).toBeGreaterThan(0);
    const put = world.requests.find((r) => r.method === "PUT")!;
    expect(put.url).toMatch(/\/api\/v1\/deployments\/1\/reports\/\d+\/refresh$/);
    const after = callOk<Snapshot>(world, "refreshPane");
    const placement = after.reports
      .find((r) => r.name === "Revenue by Region")
      ?.externalWorkbookPlacements?.find((p) => p.workbookId === OTHER_WORKBOOK.id) as
      | { syncStatus?: string }
      | undefined;
    expect(placement?.syncStatus).toBe("UP_TO_DATE");
  });

  it("Disconnect report here: removes the placement under the cell, then finds nothing there", () => {
    const world = boardPack();
    world.select("KPIs", "H20");
    world.global.disconnectReportHere();
    expect(world.toasts.at(-1)?.message).toBe(
      "No report is placed at KPIs!H20. Select a cell inside a placed report, then try again.",
    );
    expect(world.requests.some((r) => r.method === "DELETE")).toBe(false);

    world.select("KPIs", "C3");
    world.global.disconnectReportHere();
    expect(world.toasts.at(-1)?.message).toMatch(
      /^Disconnected Revenue by Region from .*KPIs.*A1.*cells keep their values/,
    );
    const del = world.requests.find((r) => r.method === "DELETE")!;
    expect(del.url).toMatch(/\/api\/v1\/deployments\/1\/reports\/\d+\/connect-workbook$/);
    expect(del.headers.Authorization).toBe(`Bearer ${DEMO_API_KEY}`);
    expect(JSON.parse(del.payload!)).toEqual({ placementId: "plc-101-board" });

    const after = callOk<Snapshot>(world, "refreshPane");
    const revenue = after.reports.find((r) => r.name === "Revenue by Region");
    expect(
      revenue?.externalWorkbookPlacements?.filter((p) => p.workbookId === OTHER_WORKBOOK.id) ?? [],
    ).toEqual([]);
    world.global.disconnectReportHere();
    expect(world.toasts.at(-1)?.message).toMatch(/^No report is placed at KPIs!C3/);
  });

  it("a wrong key is refused with 401; a key scoped to another deployment with 403", () => {
    const wrong = boardPack({ apiKey: "sk-not-a-real-key" });
    expect(callError(wrong, "refreshPane")).toMatchObject({ kind: "unauthorized", status: 401 });
    const scoped = boardPack({ apiKey: DEMO_SCOPED_KEY, deploymentId: 2 });
    expect(callError(scoped, "refreshPane")).toMatchObject({
      kind: "forbidden",
      status: 403,
      message: expect.stringMatching(/deployment 2 is not among them/),
    });
    scoped.global.disconnectReportHere();
    expect(scoped.toasts.at(-1)?.message).toMatch(/\(403\)/);
  });

  it("lists SCIM users and asks the agent for a whole answer", () => {
    const world = boardPack();
    const users = callOk<{ totalResults: number; users: { userName: string }[] }>(world, "listScimUsers", {
      count: 3,
      startIndex: 1,
    });
    expect(users.users.length).toBeGreaterThan(0);
    expect(users.users.length).toBeLessThanOrEqual(3);
    const answer = callOk<{ answer: string | null; chatId: string | null }>(world, "askAgent", {
      input: "What was revenue by region?",
      sessionSettings: { externalId: "ann.lee@example.com" },
    });
    expect(answer.answer).toEqual(expect.any(String));
    expect(answer.answer?.length).toBeGreaterThan(0);
    expect(answer.chatId).toEqual(expect.any(String));
    const followUp = callOk<{ chatId: string | null }>(world, "askAgent", {
      input: "And last quarter?",
      chatId: answer.chatId,
      sessionSettings: { externalId: "ann.lee@example.com" },
    });
    expect(followUp.chatId).toBe(answer.chatId);
  });
});
