/**
 * Refresh in Excel, measured end to end against the sandbox (the real CLI, its own process):
 *
 * 1. A 50,000 x 8 placement refreshed end to end (the deployment, the data token, the load, the
 *    grid, the cells read and written through the Office.js stand-in held to Excel on the web's
 *    5 MB per sync, the checksum, the record): goal within 3x of the load and `JSON.parse` of the
 *    same answer alone, in the same run.
 * 2. Refresh all over 20 placements (two deployments, four sheets): token requests per deployment
 *    (goal: at most 1) and syncs per block written (goal: 1), sheet by sheet (each sheet's blocks
 *    written together).
 *
 * The pane's responsiveness during a refresh is measured in Chromium by bench/refresh-pane.ts.
 */

import { placedReports } from "../src/core/placement-view.js";
import type { RefreshOutcome } from "../src/core/refresh-flow.js";
import { planRefresh } from "../src/core/refresh-plan.js";
import type { Report, ReportPlacement } from "../src/core/schema.js";
import { fetchTransport, type HttpRequest, type Transport } from "../src/core/transport.js";
import { createDirectGateway, createMemorySecretStore } from "../src/hosts/direct-gateway.js";
import { refreshWithGateway } from "../src/hosts/direct-refresh.js";
import { createExcelCells } from "../src/hosts/excel/cells.js";
import type { SeedInput } from "../src/sandbox/seed.js";
import { createCellsWorkbook, EXCEL_PAYLOAD_LIMIT_BYTES } from "../test/support/excel-cells.js";
import { spawnSandbox } from "../test/support/spawn-sandbox.js";
import { goalLine, ratioLine } from "./goal.js";

const KEY = "sk-bench-refresh-0001";
const WORKBOOK = "wb-bench-refresh";
const BIG_ROWS = 50_000;
const SHEETS = [
  { id: "{S1}", name: "Data" },
  { id: "{S2}", name: "North" },
  { id: "{S3}", name: "South" },
  { id: "{S4}", name: "Totals" },
];

const owner = { id: 1, email: "bench@example.com", firstName: null, picture: null };

/** Eight dimensions of a generated cube (one of them a time dimension, by day): eight columns. */
function cube(name: string, deploymentId: number, rows: number): NonNullable<SeedInput["cubes"]>[number] {
  return {
    name,
    deploymentId,
    title: name,
    dimensions: [
      { name: "line", title: "Line", type: "string" },
      { name: "region", title: "Region", type: "string" },
      { name: "city", title: "City", type: "string" },
      { name: "channel", title: "Channel", type: "string" },
      { name: "day", title: "Day", type: "time" },
      { name: "amount", title: "Amount", type: "number" },
      { name: "qty", title: "Quantity", type: "number" },
      { name: "paid", title: "Paid", type: "boolean" },
    ],
    measures: [{ name: "count", title: "Lines", aggregation: "count", type: "count" }],
    generator: {
      seed: deploymentId,
      rows,
      columns: {
        line: { sequence: { prefix: "L-", pad: 6 } },
        region: { pick: ["North", "South", "East", "West", "Central"] },
        city: { pick: ["Lyon", "Köln", "Oslo", "Porto", "Turin", "Gdańsk", "Cork"] },
        channel: { pick: ["Retail", "Online", "Wholesale"] },
        day: { date: ["2024-01-01", "2024-12-31"] },
        amount: { decimal: [1, 5000], decimals: 2 },
        qty: { int: [1, 50] },
        paid: { chance: 0.9 },
      },
    },
  };
}

function query(cubeName: string, limit: number): string {
  const m = (n: string) => `${cubeName}.${n}`;
  return JSON.stringify({
    dimensions: ["line", "region", "city", "channel", "amount", "qty", "paid"].map(m),
    timeDimensions: [{ dimension: m("day"), granularity: "day" }],
    limit,
  });
}

function report(id: number, deploymentId: number, jsonQuery: string, placements: ReportPlacement[]): Report {
  return {
    id,
    publicId: `Bench${String(id).padStart(7, "0")}`,
    deploymentId,
    userId: 1,
    user: owner,
    refreshedByUser: owner,
    name: `Report ${id}`,
    createdAt: "2026-01-01",
    updatedAt: "2026-01-01",
    type: "REPORT",
    currentQueryChecksum: `q${id}`,
    jsonQuery,
    version: 1,
    externalWorkbookPlacements: placements,
  };
}

function placement(id: string, sheet: (typeof SHEETS)[number], anchor: string): ReportPlacement {
  return {
    workbookId: WORKBOOK,
    id,
    sheetId: sheet.id,
    sheetName: sheet.name,
    anchorCell: anchor,
    resultLocation: `'${sheet.name}'!${anchor}`,
  };
}

/**
 * Report 1: 50,000 x 8 at Data!A1. Reports 2-11: 2,000 to 20,000 rows of either deployment, each
 * placed twice on North, South or Totals (20 placements), far apart so none overlaps another.
 */
function seed(): SeedInput {
  const reports: Report[] = [report(1, 1, query("lines", BIG_ROWS), [placement("big", SHEETS[0]!, "A1")])];
  for (let r = 0; r < 10; r++) {
    const deploymentId = 1 + (r % 2);
    const rows = r === 0 ? 20_000 : 2_000;
    const sheets = [SHEETS[1 + (r % 3)]!, SHEETS[1 + ((r + 1) % 3)]!];
    reports.push(
      report(
        2 + r,
        deploymentId,
        query(deploymentId === 1 ? "lines" : "orders", rows),
        // Columns of 10 apart: each report has its own band of columns on a sheet.
        sheets.map((sheet, i) => placement(`r${2 + r}-${i}`, sheet, `A${1 + r * 25_000}`)),
      ),
    );
  }
  return {
    deployments: [
      { id: 1, name: "Production" },
      { id: 2, name: "Staging" },
    ],
    users: [owner],
    apiKeys: [{ key: KEY, deployments: "all" }],
    reports,
    cubes: [cube("lines", 1, BIG_ROWS), cube("orders", 2, 20_000)],
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** A gateway of its own (no token kept from an earlier run), over fetch, recording what it sends. */
async function paneGateway(tenant: string, sent: HttpRequest[]) {
  const direct = fetchTransport((input, init) => fetch(input, init));
  const transport: Transport = (request) => {
    sent.push(request);
    return direct(request);
  };
  const gateway = createDirectGateway({ store: createMemorySecretStore(), transport });
  await gateway.saveSettings({ tenantUrl: tenant, apiKey: KEY, deploymentId: 1 });
  return gateway;
}

/** The placements of the workbook as the service lists them now (their extents as last recorded). */
async function workbookReports(tenant: string): Promise<Report[]> {
  const reports: Report[] = [];
  for (const deploymentId of [1, 2]) {
    const gateway = await paneGateway(tenant, []);
    await gateway.saveSettings({ deploymentId });
    reports.push(...(await gateway.listWorkbookReports(WORKBOOK)).reports);
  }
  return reports;
}

async function refreshOnce(
  tenant: string,
  scope: "big" | "all",
  workbook = createCellsWorkbook(SHEETS),
): Promise<{
  ms: number;
  outcomes: RefreshOutcome[];
  sent: HttpRequest[];
  blocks: { sheet: string; syncs: number }[];
}> {
  const reports = await workbookReports(tenant);
  const plan = planRefresh(placedReports(reports), { kind: "all" }, SHEETS);
  const items = plan.items.filter((i) =>
    scope === "big" ? i.placement.id === "big" : i.placement.id !== "big",
  );
  const sent: HttpRequest[] = [];
  const gateway = await paneGateway(tenant, sent);
  const excel = createExcelCells(workbook.Excel as never);
  const blocks: { sheet: string; syncs: number }[] = [];
  const cells = {
    read: excel.read,
    async write(block: Parameters<typeof excel.write>[0]) {
      const before = workbook.syncPayloads.length + workbook.failedSyncs.length;
      await excel.write(block);
      blocks.push({
        sheet: block.sheet.name,
        syncs: workbook.syncPayloads.length + workbook.failedSyncs.length - before,
      });
    },
  };
  const outcomes: RefreshOutcome[] = [];
  const t0 = performance.now();
  await refreshWithGateway(
    items,
    { confirmOverwrite: async () => true, onOutcome: (o) => outcomes.push(o) },
    gateway,
    cells,
  );
  const ms = performance.now() - t0;
  const failed = outcomes.filter((o) => o.status !== "refreshed");
  if (failed.length) throw new Error(`Not refreshed: ${failed.map((o) => o.message).join(" | ")}`);
  if (workbook.failedSyncs.length) throw new Error(`Failed syncs: ${workbook.failedSyncs.join(", ")}`);
  const biggest = Math.max(...workbook.syncPayloads);
  if (biggest > EXCEL_PAYLOAD_LIMIT_BYTES)
    throw new Error(`A sync of ${biggest} bytes passed the 5 MB rule.`);
  return { ms, outcomes, sent, blocks };
}

/** The load request the data client sent for the big placement: replayed alone for the baseline. */
function loadRequestOf(sent: HttpRequest[]): HttpRequest {
  const load = sent.find((r) => r.target === "data-api");
  if (!load) throw new Error("No load request was sent.");
  return load;
}

/** The same answer loaded and parsed alone: one POST of the same body and token, `JSON.parse`. */
async function loadAndParse(load: HttpRequest): Promise<{ ms: number; parseMs: number; bytes: number }> {
  const t0 = performance.now();
  const response = await fetch(load.url, { method: "POST", headers: load.headers, body: load.body ?? null });
  const text = await response.text();
  const t1 = performance.now();
  const answer = JSON.parse(text) as { data?: unknown[] };
  const t2 = performance.now();
  if (answer.data?.length !== BIG_ROWS) throw new Error(`The load answered ${answer.data?.length} rows.`);
  return { ms: t2 - t0, parseMs: t2 - t1, bytes: text.length };
}

/** True when each sheet's blocks were written together (no sheet comes back after another). */
function sheetBySheet(blocks: readonly { sheet: string }[]): boolean {
  const seen: string[] = [];
  for (const b of blocks) {
    if (seen.at(-1) === b.sheet) continue;
    if (seen.includes(b.sheet)) return false;
    seen.push(b.sheet);
  }
  return true;
}

export async function run(): Promise<void> {
  const sandbox = await spawnSandbox(seed());
  try {
    // 1. End to end vs load + JSON.parse, alternated, after a warm-up of each.
    const warm = await refreshOnce(sandbox.url, "big");
    const load = loadRequestOf(warm.sent);
    await loadAndParse(load);
    const ends: number[] = [];
    const alone: number[] = [];
    const parses: number[] = [];
    let bytes = 0;
    let syncs = 0;
    for (let i = 0; i < 5; i++) {
      const baseline = await loadAndParse(load);
      alone.push(baseline.ms);
      parses.push(baseline.parseMs);
      bytes = baseline.bytes;
      const workbook = createCellsWorkbook(SHEETS);
      ends.push((await refreshOnce(sandbox.url, "big", workbook)).ms);
      syncs = workbook.syncPayloads.length;
    }
    const endMs = median(ends);
    const aloneMs = median(alone);
    console.log(
      `placement: ${BIG_ROWS.toLocaleString("en")} x 8 (one header row more), answer ${(bytes / 1e6).toFixed(1)} MB of JSON; ${syncs} syncs, each within 5 MB`,
    );
    console.log(
      ratioLine(
        "Refresh end to end (deployment, token, load, grid, cells read and written, checksum, record) vs load + JSON.parse alone",
        endMs / aloneMs,
        3,
        `${endMs.toFixed(0)} ms vs ${aloneMs.toFixed(0)} ms`,
      ),
    );
    // The sandbox's own query time is in both sides: what the refresh adds to it, for the record.
    console.log(
      `of which beyond the load alone (grid, cells, checksum, record, the deployment and token): ${(endMs - aloneMs).toFixed(0)} ms; JSON.parse alone ${median(parses).toFixed(0)} ms (no goal)`,
    );

    // 2. Refresh all over 20 placements: tokens per deployment, syncs per block, sheet by sheet.
    const all = await refreshOnce(sandbox.url, "all");
    const tokens = new Map<number, number>();
    for (const r of all.sent) {
      const m = /\/api\/v1\/deployments\/(\d+)\/token$/.exec(new URL(r.url).pathname);
      if (m) tokens.set(Number(m[1]), (tokens.get(Number(m[1])) ?? 0) + 1);
    }
    const most = Math.max(...tokens.values());
    console.log(
      `Refresh all: ${all.outcomes.length} placements of 10 reports over 2 deployments and 3 sheets, ${all.blocks.length} blocks written (${all.ms.toFixed(0)} ms)`,
    );
    console.log(
      goalLine(
        "Token requests per deployment",
        [...tokens].map(([d, n]) => `deployment ${d}: ${n}`).join(", "),
        "at most 1",
        most <= 1 && tokens.size === 2,
      ),
    );
    const perBlock = all.blocks.map((b) => b.syncs);
    const order = all.blocks.map((b) => b.sheet).filter((s, i, a) => a[i - 1] !== s);
    console.log(
      goalLine(
        "Syncs per block written",
        `${Math.min(...perBlock)} to ${Math.max(...perBlock)} (${perBlock.reduce((a, b) => a + b, 0)} syncs for ${perBlock.length} blocks); sheets in turn: ${order.join(", ")}`,
        "1 per block, sheet by sheet",
        perBlock.every((n) => n === 1) && sheetBySheet(all.blocks),
      ),
    );
  } finally {
    await sandbox.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
