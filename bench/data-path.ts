/**
 * The data path: a report's answer parsed, laid out as cells (reportGrid) and fingerprinted
 * (resultChecksum). Goals, as ratios to `JSON.parse` of the same answer in the same run: the grid
 * within 2x of the parse, the checksum within 1x. 50,000 rows is the data API's largest page.
 */
import { reportGrid } from "../src/core/report-grid.js";
import { resultChecksum } from "../src/core/result-checksum.js";
import { ratioLine } from "./goal.js";

const ROWS = 50_000;

const query = {
  dimensions: ["orders.region", "orders.status", "orders.customer", "orders.items"],
  timeDimensions: [{ dimension: "orders.created_at", granularity: "day" }],
  measures: ["orders.count", "orders.revenue", "orders.avg_price", "orders.discount", "orders.margin"],
};

function entry(title: string, type: string) {
  return { title, shortTitle: title, type };
}

/** A Cube load answer of `rows` rows x 10 members, as the data API sends it (values as strings). */
export function syntheticAnswer(rows: number): string {
  const regions = ["North", "South", "East", "West", "Central"];
  const statuses = ["completed", "processing", "shipped", "cancelled"];
  const data: Record<string, string | null>[] = [];
  for (let i = 0; i < rows; i++) {
    const day = new Date(Date.UTC(2023, 0, 1 + (i % 730))).toISOString().slice(0, 10);
    data.push({
      "orders.region": regions[i % regions.length]!,
      "orders.status": statuses[i % statuses.length]!,
      "orders.customer": `Customer ${i % 9_973} — Café Ünïcode`,
      "orders.items": String(i % 17),
      "orders.created_at.day": `${day}T00:00:00.000`,
      "orders.count": String((i * 7) % 1_000),
      "orders.revenue": ((i * 37.17) % 100_000).toFixed(2),
      "orders.avg_price": i % 23 === 0 ? null : ((i * 1.3) % 999).toFixed(4),
      "orders.discount": String(-((i % 11) / 100)),
      "orders.margin": String((i % 97) * 0.0125),
    });
  }
  return JSON.stringify({
    query,
    data,
    annotation: {
      measures: {
        "orders.count": entry("Orders Count", "number"),
        "orders.revenue": entry("Orders Revenue", "number"),
        "orders.avg_price": entry("Orders Average Price", "number"),
        "orders.discount": entry("Orders Discount", "number"),
        "orders.margin": entry("Orders Margin", "number"),
      },
      dimensions: {
        "orders.region": entry("Orders Region", "string"),
        "orders.status": entry("Orders Status", "string"),
        "orders.customer": entry("Orders Customer", "string"),
        "orders.items": entry("Orders Items", "number"),
      },
      segments: {},
      timeDimensions: {
        "orders.created_at.day": entry("Orders Created at", "time"),
        "orders.created_at": entry("Orders Created at", "time"),
      },
    },
    lastRefreshTime: "2024-06-01T00:00:00.000Z",
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function time(fn: () => unknown): number {
  const t0 = performance.now();
  fn();
  return performance.now() - t0;
}

const fmt = (n: number) => n.toFixed(1);

export async function run(): Promise<void> {
  const text = syntheticAnswer(ROWS);
  const report = { jsonQuery: JSON.stringify(query), pivotItems: null };
  // Region x status by day: a query of fewer members over the same rows (the others are ignored).
  const pivotQuery = { ...query, dimensions: ["orders.region", "orders.status"], measures: ["orders.count"] };
  const pivotReport = {
    jsonQuery: JSON.stringify(pivotQuery),
    pivotItems: {
      rows: ["orders.region", "orders.status"],
      columns: ["orders.created_at.day"],
      measures: ["orders.count"],
      filters: [],
    },
  };
  const parsed = JSON.parse(text) as unknown;
  const grid = reportGrid(report, parsed);
  // Warm up every path before measuring, then alternate them: on a shared machine a slow moment
  // must not fall on one side of a ratio only.
  for (let i = 0; i < 3; i++) {
    JSON.parse(text);
    reportGrid(report, parsed);
    resultChecksum(grid.values);
  }
  const parse: number[] = [];
  const layout: number[] = [];
  const checksum: number[] = [];
  for (let i = 0; i < 11; i++) {
    parse.push(time(() => JSON.parse(text)));
    layout.push(time(() => reportGrid(report, parsed)));
    checksum.push(time(() => resultChecksum(grid.values)));
  }
  const parseMs = median(parse);
  const gridMs = median(layout);
  const checksumMs = median(checksum);
  const cells = grid.rows * grid.columns;
  console.log(
    `answer: ${ROWS.toLocaleString("en")} rows x 10 members, ${(text.length / 1e6).toFixed(1)} MB of JSON; JSON.parse median ${fmt(parseMs)} ms`,
  );
  console.log(
    ratioLine(
      `reportGrid (flat, ${grid.rows} x ${grid.columns} cells) vs JSON.parse`,
      gridMs / parseMs,
      2,
      `${fmt(gridMs)} ms vs ${fmt(parseMs)} ms`,
    ),
  );
  console.log(
    ratioLine(
      `resultChecksum (${cells.toLocaleString("en")} cells, ${resultChecksum(grid.values).chunks.length} chunks) vs JSON.parse`,
      checksumMs / parseMs,
      1,
      `${fmt(checksumMs)} ms vs ${fmt(parseMs)} ms`,
    ),
  );
  const pivotMs = median(Array.from({ length: 5 }, () => time(() => reportGrid(pivotReport, parsed))));
  const pivot = reportGrid(pivotReport, parsed);
  console.log(
    `reportGrid (pivot: region x status by ${pivot.columns - 2} days, one measure, ${pivot.rows} x ${pivot.columns} cells): ${fmt(pivotMs)} ms (ratio ${(pivotMs / parseMs).toFixed(2)} to JSON.parse; no goal)`,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
