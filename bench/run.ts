/**
 * `npm run bench`: every figure beside its goal, with "meets" or "misses", in one run. Figures are ratios
 * within the run where the machine's speed would otherwise decide the number. Words after `--` pick
 * sections by title (`npm run bench -- data` runs the data path alone).
 */
import { spawn } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";

/**
 * A section run in a Node process of its own (with this one's loader flags, so TypeScript runs as
 * here): for a measure in one process's heap, such as NDJSON decoding, the heap that the earlier
 * sections leave behind (the in-process builds above all) would otherwise weigh on the collector
 * and on the ratio, more in one half of a comparison than the other.
 */
function isolated(file: string): () => Promise<{ run(): Promise<void> }> {
  return async () => ({
    run: () =>
      new Promise<void>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          [...process.execArgv, fileURLToPath(new URL(file, import.meta.url))],
          {
            stdio: "inherit",
          },
        );
        child.on("error", reject);
        child.on("exit", (code) =>
          code === 0 ? resolve() : reject(new Error(`${file} exited with ${code}`)),
        );
      }),
  });
}

const sections: [string, () => Promise<{ run(): Promise<void> }>][] = [
  [
    "Task pane JavaScript, gzipped (goal: initial JavaScript at most 115 KB in each host, headroom under the 120 KB budget)",
    () => import("./bundle-size.js"),
  ],
  [
    "Host round trips per user action, counted through the mocks (goal: one)",
    () => import("./round-trips.js"),
  ],
  [
    "Sheets sidebar polling: google.script.run calls per hour, active and idle (goal: about every 10 s when idle)",
    () => import("./sheets-polling.js"),
  ],
  [
    "NDJSON decoding (goal: a long line in 16-byte chunks within 2x of the line whole)",
    isolated("./ndjson.ts"),
  ],
  [
    "Data path: a report's answer to cells and checksum (goals: grid within 2x of JSON.parse, checksum within 1x)",
    isolated("./data-path.ts"),
  ],
  [
    "Refresh in Excel: 50,000 x 8 end to end, and Refresh all over 20 placements (goals: within 3x of load + JSON.parse; at most 1 token request per deployment; 1 sync per block, sheet by sheet)",
    isolated("./refresh.ts"),
  ],
  [
    "Refresh in the Excel pane in Chromium: input during a 50,000-row refresh (goal: handled within 100 ms; needs npm run build)",
    () => import("./refresh-pane.js"),
  ],
  [
    "Hand edits: input while a 50,000-row placement's cells are compared, Excel pane in Chromium (goal: handled within 100 ms; needs npm run build)",
    () => import("./hand-edits-pane.js"),
  ],
  [
    "Placement lookup (no set number: independent of the number of placements)",
    () => import("./placements.js"),
  ],
  [
    "First painted placement list in Chromium vs a bare React page (wall clock: printed, not judged; the goals are on CPU, next section)",
    () => import("./first-render.js"),
  ],
  [
    "Main-thread CPU to the first painted list in Chromium, from traces (goals: cold Excel pane at most 1.8x the bare React page, reopened at most 1.0x; wall-clock ratios printed, not judged)",
    () => import("./cpu.js"),
  ],
  [
    "Placement list, 2,000 placements vs 20, in Chromium (goals: whole list paint within 1.3x, selection update within 1.2x)",
    () => import("./placement-list.js"),
  ],
  ["Sandbox under load (50 concurrent clients on loopback; no goal)", () => import("./sandbox-load.js")],
  [
    "Relay under load (200 concurrent clients on loopback; goal: p99 added by the relay under 5 ms, nothing lost)",
    isolated("./relay-load.ts"),
  ],
];

// `npm run bench -- data ndjson`: only the sections whose title holds one of the words (any case).
const only = process.argv.slice(2).map((word) => word.toLowerCase());
const selected = only.length
  ? sections.filter(([title]) => only.some((word) => title.toLowerCase().includes(word)))
  : sections;
if (selected.length === 0) {
  console.error(`bench: no section's title holds ${only.join(" or ")}`);
  process.exit(1);
}

console.log(
  `bench: ${new Date().toISOString()} · Node ${process.version} · ${cpus().length} cores (${cpus()[0]?.model ?? "?"}) · ${Math.round(totalmem() / 2 ** 30)} GiB`,
);
const started = performance.now();
for (const [title, load] of selected) {
  console.log(`\n## ${title}`);
  const t0 = performance.now();
  await (await load()).run();
  console.log(`(${((performance.now() - t0) / 1000).toFixed(1)} s)`);
}
console.log(`\nbench: done in ${((performance.now() - started) / 1000).toFixed(0)} s`);
