/**
 * Stopping under an orchestrator, with `npm run serve` as a real process: on SIGTERM it stops
 * accepting connections, and a relayed NDJSON stream already running (the agent's answer) runs to
 * its end before the process exits 0; past the grace period what is still running is cut and the
 * process exits 0 all the same. Its log lines on stderr are JSON by default, the stream's included.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runAddinServer, spawnAddinServer } from "../support/spawn-addin-server.js";

let tenant: Server;
let tenantUrl: string;
/** The streams the tenant holds open, in arrival order, until the test ends them. */
let streams: ServerResponse[] = [];
let streamArrived: (() => void) | null = null;

beforeAll(async () => {
  tenant = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "Content-Type": "application/x-ndjson" });
    res.write(`${JSON.stringify({ line: 1 })}\n`);
    streams.push(res);
    streamArrived?.();
  });
  await new Promise<void>((r) => tenant.listen(0, "127.0.0.1", r));
  tenantUrl = `http://127.0.0.1:${(tenant.address() as AddressInfo).port}`;
});
afterAll(async () => {
  tenant.closeAllConnections();
  await new Promise((r) => tenant.close(r));
});

/** Opens a relayed stream and returns its reader once the first line has come through. */
async function openStream(base: string) {
  streams = [];
  const arrived = new Promise<void>((r) => (streamArrived = r));
  const answer = await fetch(`${base}/relay/${new URL(tenantUrl).host}/api/v1/agent/ask`, {
    method: "POST",
    body: "{}",
  });
  await arrived;
  const reader = answer.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!text.includes("\n")) text += (await reader.read()).value ?? "";
  return { answer, reader, text };
}

async function readRest(reader: ReadableStreamDefaultReader<string>): Promise<string> {
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    text += value;
  }
}

describe("stopping on SIGTERM", () => {
  it("stops accepting, lets a relayed stream in flight finish, then exits 0", async () => {
    const server = await spawnAddinServer(["--port", "0", "--tenant", tenantUrl]);
    const { answer, reader, text } = await openStream(server.url);
    expect(text).toBe('{"line":1}\n');
    server.child.kill("SIGTERM");
    await expect.poll(() => server.stderr()).toContain("Stopping");
    // No new connection is accepted while draining.
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect(server.child.exitCode).toBeNull();
    // The tenant finishes its answer: it reaches the client whole.
    streams[0]!.write(`${JSON.stringify({ line: 2 })}\n`);
    streams[0]!.end(`${JSON.stringify({ line: 3 })}\n`);
    expect(await readRest(reader)).toBe('{"line":2}\n{"line":3}\n');
    expect(answer.status).toBe(200);
    expect(await server.stop()).toBe(0);
    const requestLines = server
      .stderr()
      .split("\n")
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => "route" in line);
    expect(requestLines).toContainEqual(
      expect.objectContaining({ method: "POST", route: "/relay/:host/*", status: 200, bytes: 33 }),
    );
  });

  it("closes what still runs after the grace period and exits 0", async () => {
    const server = await spawnAddinServer(["--port", "0", "--tenant", tenantUrl, "--shutdown-grace-ms", "0"]);
    const { reader } = await openStream(server.url);
    const exited = new Promise<number | null>((r) => server.child.once("exit", r));
    server.child.kill("SIGTERM");
    expect(await exited).toBe(0);
    await expect(readRest(reader)).rejects.toThrow();
    expect(server.stderr()).toContain("still running after the grace period");
    streams[0]!.end();
  });

  it("refuses a grace period or a log format it cannot read", async () => {
    const grace = await runAddinServer(["--shutdown-grace-ms", "soon"]);
    expect([grace.status, grace.stderr]).toEqual([2, expect.stringContaining("SHUTDOWN_GRACE_MS")]);
    const format = await runAddinServer([], { LOG_FORMAT: "xml" });
    expect([format.status, format.stderr]).toEqual([2, expect.stringContaining("--log-format / LOG_FORMAT")]);
  });

  it("writes a readable request line with --log-format text", async () => {
    const server = await spawnAddinServer(["--port", "0", "--log-format", "text"]);
    await (await fetch(`${server.url}/healthz?x=q-s3cr3t`)).text();
    await expect.poll(() => server.stderr()).toMatch(/GET \/healthz 200 [\d.]+ms 15B id=/);
    expect(server.stderr()).not.toContain("q-s3cr3t");
    expect(await server.stop()).toBe(0);
  });
});
