/**
 * The relay under load: 200 concurrent clients on loopback, first calling a loopback tenant
 * directly, then the same tenant through the add-in server's relay (the real CLI, its JSON request
 * log on), each phase bounded in count and time. Reported: requests per second, p50 and p99, the
 * latency the relay adds (through minus direct, per percentile), and that nothing was lost: every
 * answer came back whole and was the one asked for. Then one client alone, one request at a time,
 * for what a relayed call costs without queueing. The tenant runs in a process of its own, so the
 * clients, the relay and the tenant do not share one event loop.
 */
import { spawn } from "node:child_process";
import { spawnAddinServer } from "../test/support/spawn-addin-server.js";
import { goalLine } from "./goal.js";
import { answerKind } from "./relay-answers.js";

const CLIENTS = 200;
const PHASE_MS = 5_000;
const MAX_REQUESTS = 50_000;
const GOAL_ADDED_P99_MS = 5;

/** A tenant that answers `{"n":<n>}` to `/api/v1/echo?n=<n>`, printing its URL when ready. */
const TENANT = `
const { createServer } = require("node:http");
const server = createServer((req, res) => {
  const n = new URL(req.url, "http://x").searchParams.get("n");
  const body = JSON.stringify({ n: Number(n), padding: "x".repeat(512) });
  res.writeHead(200, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) });
  res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => console.log("http://127.0.0.1:" + server.address().port));
process.on("SIGTERM", () => process.exit(0));
`;

interface Phase {
  /** Of the answers that came back as asked. */
  latencies: number[];
  /** Refused by the relay as busy (its requests-in-flight limit): overload answered by design. */
  shed: number;
  lost: number;
  seconds: number;
}

async function phase(urlOf: (n: number) => string, clients = CLIENTS, ms = PHASE_MS): Promise<Phase> {
  const latencies: number[] = [];
  let shed = 0;
  let lost = 0;
  let next = 0;
  const started = performance.now();
  const deadline = started + ms;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (next < MAX_REQUESTS && performance.now() < deadline) {
        const n = next++;
        const t0 = performance.now();
        try {
          const answer = await fetch(urlOf(n));
          const kind = answerKind(answer.status, answer.headers.get("x-relay-error"), await answer.json(), n);
          if (kind === "answered") latencies.push(performance.now() - t0);
          else if (kind === "shed") shed++;
          else lost++;
        } catch {
          lost++;
        }
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  return { latencies, shed, lost, seconds: (performance.now() - started) / 1000 };
}

const percentile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

function describe(label: string, p: Phase, clients = CLIENTS): string {
  return `${label}: ${p.latencies.length} answered of ${p.latencies.length + p.shed + p.lost} requests by ${clients} concurrent client${clients === 1 ? "" : "s"} in ${p.seconds.toFixed(2)} s: ${(p.latencies.length / p.seconds).toFixed(0)}/s, p50 ${percentile(p.latencies, 0.5).toFixed(1)} ms, p99 ${percentile(p.latencies, 0.99).toFixed(1)} ms, ${p.shed} refused as busy, ${p.lost} lost`;
}

export async function run(): Promise<void> {
  const tenant = spawn(process.execPath, ["-e", TENANT], { stdio: ["ignore", "pipe", "inherit"] });
  try {
    const tenantUrl = await new Promise<string>((resolve, reject) => {
      let out = "";
      tenant.stdout!.setEncoding("utf8").on("data", (c: string) => {
        out += c;
        if (out.includes("\n")) resolve(out.split("\n")[0]!);
      });
      tenant.once("exit", (code) => reject(new Error(`the bench tenant exited with ${code}`)));
    });
    const server = await spawnAddinServer(["--port", "0", "--tenant", tenantUrl]);
    try {
      const host = new URL(tenantUrl).host;
      // Warm both paths (connections, JIT) before measuring.
      for (let i = 0; i < 200; i++) {
        await (await fetch(`${tenantUrl}/api/v1/echo?n=${i}`)).arrayBuffer();
        await (await fetch(`${server.url}/relay/${host}/api/v1/echo?n=${i}`)).arrayBuffer();
      }
      const direct = await phase((n) => `${tenantUrl}/api/v1/echo?n=${n}`);
      console.log(describe("direct to the tenant", direct));
      const relayed = await phase((n) => `${server.url}/relay/${host}/api/v1/echo?n=${n}`);
      console.log(describe("through the relay", relayed));
      const added50 = percentile(relayed.latencies, 0.5) - percentile(direct.latencies, 0.5);
      const added99 = percentile(relayed.latencies, 0.99) - percentile(direct.latencies, 0.99);
      console.log(
        goalLine(
          "relay: latency added",
          `p50 ${added50.toFixed(1)} ms, p99 ${added99.toFixed(1)} ms`,
          `p99 added under ${GOAL_ADDED_P99_MS} ms`,
          added99 < GOAL_ADDED_P99_MS,
        ),
      );
      // Without queueing: one client, one request at a time, what one relayed call costs.
      const alone = await phase((n) => `${tenantUrl}/api/v1/echo?n=${n}`, 1, 1_000);
      const aloneRelayed = await phase((n) => `${server.url}/relay/${host}/api/v1/echo?n=${n}`, 1, 1_000);
      console.log(describe("direct, one client", alone, 1));
      console.log(describe("relayed, one client", aloneRelayed, 1));
      console.log(
        `relay: latency added with one client (no queueing; no goal): p50 ${(percentile(aloneRelayed.latencies, 0.5) - percentile(alone.latencies, 0.5)).toFixed(2)} ms, p99 ${(percentile(aloneRelayed.latencies, 0.99) - percentile(alone.latencies, 0.99)).toFixed(2)} ms`,
      );
      const shed = relayed.shed + aloneRelayed.shed;
      console.log(
        `relay: requests refused as busy past its in-flight limit (503 relay-busy with Retry-After, which the pane's client waits for and retries; no goal): ${shed}`,
      );
      const lost = direct.lost + relayed.lost + alone.lost + aloneRelayed.lost;
      console.log(goalLine("relay: answers lost", String(lost), "none", lost === 0));
    } finally {
      await server.stop();
    }
  } finally {
    tenant.kill("SIGTERM");
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await run();
