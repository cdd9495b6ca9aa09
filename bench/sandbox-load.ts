/**
 * The sandbox under load: 50 concurrent clients on loopback disconnecting placements of the same
 * reports, bounded in count and time, then the check that every expected placement is gone and
 * every other one is still there. The sandbox runs as its own process (the real CLI), as a user
 * runs it.
 */
import { createPlatformClient } from "../src/core/client.js";
import { placementsOf } from "../src/core/placements.js";
import type { Report, ReportPlacement } from "../src/core/schema.js";
import { fetchTransport } from "../src/core/transport.js";
import { spawnSandbox } from "../test/support/spawn-sandbox.js";

const KEY = "sk-bench-load-0001";
const REPORTS = 20;
const PLACEMENTS_PER_REPORT = 150;
const CLIENTS = 50;
const TIME_LIMIT_MS = 20_000;

function seed() {
  const owner = { id: 1, email: "bench@example.com", firstName: null, picture: null };
  const reports: Report[] = Array.from({ length: REPORTS }, (_, r) => ({
    id: r + 1,
    publicId: `Bench${String(r + 1).padStart(7, "0")}`,
    deploymentId: 1,
    userId: 1,
    user: owner,
    refreshedByUser: owner,
    name: `Report ${r + 1}`,
    createdAt: "2026-01-01",
    updatedAt: "2026-01-01",
    type: "REPORT",
    externalWorkbookPlacements: Array.from(
      { length: PLACEMENTS_PER_REPORT },
      (_, i): ReportPlacement => ({
        workbookId: "wb-bench",
        id: `r${r + 1}-p${i}`,
        sheetId: `s${i % 5}`,
        sheetName: `Sheet${i % 5}`,
        anchorCell: `A${i * 10 + 1}`,
        resultLocation: `Sheet${i % 5}!A${i * 10 + 1}`,
      }),
    ),
  }));
  return {
    deployments: [{ id: 1, name: "Bench" }],
    apiKeys: [{ key: KEY, deployments: "all" as const }],
    reports,
  };
}

export async function run(): Promise<void> {
  const sandbox = await spawnSandbox(seed() as never);
  try {
    const client = createPlatformClient({
      transport: fetchTransport(fetch),
      baseUrl: sandbox.url,
      token: KEY,
      retries: 0,
    });
    // Every other placement of every report goes; the rest must stay.
    const targets: { report: number; placement: string }[] = [];
    for (let r = 1; r <= REPORTS; r++) {
      for (let i = 0; i < PLACEMENTS_PER_REPORT; i += 2)
        targets.push({ report: r, placement: `r${r}-p${i}` });
    }
    const latencies: number[] = [];
    let next = 0;
    let failures = 0;
    const started = performance.now();
    const deadline = started + TIME_LIMIT_MS;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < targets.length && performance.now() < deadline) {
          const t = targets[next++]!;
          const t0 = performance.now();
          try {
            await client.disconnectReportFromWorkbook(1, t.report, { placementId: t.placement });
          } catch {
            failures++;
          }
          latencies.push(performance.now() - t0);
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
    console.log(
      `sandbox load: ${latencies.length} disconnects by ${CLIENTS} concurrent clients in ${seconds.toFixed(2)} s: ${(latencies.length / seconds).toFixed(0)}/s, p50 ${p(0.5).toFixed(1)} ms, p99 ${p(0.99).toFixed(1)} ms, ${failures} failed`,
    );

    const done = new Set(targets.slice(0, latencies.length).map((t) => t.placement));
    let wrong = 0;
    for (let r = 1; r <= REPORTS; r++) {
      const ids = new Set(placementsOf(await client.getReport(1, r)).map((p) => p.id));
      for (let i = 0; i < PLACEMENTS_PER_REPORT; i++) {
        const id = `r${r}-p${i}`;
        if (ids.has(id) === done.has(id)) wrong++;
      }
    }
    console.log(
      `sandbox load check: ${done.size} placements expected gone, ${REPORTS * PLACEMENTS_PER_REPORT - done.size} expected to stay: ${wrong === 0 ? "all as expected" : `${wrong} WRONG`}`,
    );
  } finally {
    await sandbox.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
