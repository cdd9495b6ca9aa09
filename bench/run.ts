/**
 * `npm run bench`: every figure beside its budget (design.md), in one run. Figures are ratios
 * within the run where the machine's speed would otherwise decide the number.
 */
import { cpus, totalmem } from "node:os";

const sections: [string, () => Promise<{ run(): Promise<void> }>][] = [
  ["NDJSON decoding (budget: within 2x of JSON.parse; linear however chunked)", () => import("./ndjson.js")],
  ["Placement lookup (budget: independent of the number of placements)", () => import("./placements.js")],
  ["Sandbox under load (50 concurrent clients on loopback)", () => import("./sandbox-load.js")],
];

console.log(
  `bench: ${new Date().toISOString()} · Node ${process.version} · ${cpus().length} cores (${cpus()[0]?.model ?? "?"}) · ${Math.round(totalmem() / 2 ** 30)} GiB`,
);
for (const [title, load] of sections) {
  console.log(`\n## ${title}`);
  await (await load()).run();
}
