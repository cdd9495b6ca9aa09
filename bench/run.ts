/**
 * `npm run bench`: every figure beside its budget (design.md), in one run. Figures are ratios
 * within the run where the machine's speed would otherwise decide the number.
 */
import { cpus, totalmem } from "node:os";

const sections: [string, () => Promise<{ run(): Promise<void> }>][] = [
  [
    "Task pane JavaScript, gzipped (budget: 150 KB for the pane's initial JavaScript)",
    () => import("./bundle-size.js"),
  ],
  [
    "Host round trips per user action, counted through the mocks (budget: one)",
    () => import("./round-trips.js"),
  ],
  [
    "Sheets sidebar polling: google.script.run calls per hour, active and idle (target: about every 10 s when idle)",
    () => import("./sheets-polling.js"),
  ],
  ["NDJSON decoding (budget: within 2x of JSON.parse; linear however chunked)", () => import("./ndjson.js")],
  ["Placement lookup (budget: independent of the number of placements)", () => import("./placements.js")],
  [
    "First rendered placement list in Chromium vs a bare React page (a ratio; design.md sets no number)",
    () => import("./first-render.js"),
  ],
  [
    "Placement list, 2,000 placements vs 20, in Chromium (a ratio; design.md sets no number)",
    () => import("./placement-list.js"),
  ],
  ["Sandbox under load (50 concurrent clients on loopback)", () => import("./sandbox-load.js")],
];

console.log(
  `bench: ${new Date().toISOString()} · Node ${process.version} · ${cpus().length} cores (${cpus()[0]?.model ?? "?"}) · ${Math.round(totalmem() / 2 ** 30)} GiB`,
);
const started = performance.now();
for (const [title, load] of sections) {
  console.log(`\n## ${title}`);
  const t0 = performance.now();
  await (await load()).run();
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
console.log(`\nbench: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
