/** `npm run sandbox`: the URL line, the demo data, bad seeds and clean stops, by running the real CLI. */
import { createConnection } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  DEMO_AGENT_KEY,
  DEMO_API_KEY,
  DEMO_EUROPE_KEY,
  DEMO_SCIM_TOKEN,
  DEMO_SCOPED_KEY,
} from "../../src/sandbox/demo.js";
import { DEMO_WORKBOOK, OTHER_WORKBOOK } from "../../src/sandbox/demo-workbook.js";
import { runNpmScript } from "../support/cli-bundles.js";
import { call, makeReport, seedWith } from "../support/sandbox-fixtures.js";
import { runSandboxCli, type SpawnedSandbox, spawnSandbox, writeSeedFile } from "../support/spawn-sandbox.js";

const URL_LINE = /^http:\/\/127\.0\.0\.1:\d+\n$/;

/** Whether a TCP connection to host:port is accepted. */
function connects(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

describe("the command line", () => {
  it("is what npm run sandbox runs, from the sources (the other tests run its bundle)", async () => {
    const run = await runNpmScript("sandbox", ["--help"]);
    expect(run.status).toBe(0);
    expect(run.stderr).toMatch(/^usage: npm run sandbox -- \[--port <n>\]/);
  });

  it("prints exactly one line on stdout, the base URL, and stops cleanly on SIGTERM and SIGINT", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const run = await runSandboxCli(["--port", "0"], { until: (out) => out.includes("\n"), signal });
      expect(run.stdout).toMatch(URL_LINE);
      expect(run.code).toBe(0);
    }
  });

  it("a bad seed file exits with status 2 and a message naming the bad field", async () => {
    const good = seedWith([makeReport(1, [])]);
    const cases: [unknown, RegExp][] = [
      [{ ...good, reports: [makeReport(1, [], { publicId: "short" })] }, /reports\[0\]\.publicId/],
      ["{ not json", /not valid JSON/],
    ];
    await Promise.all(
      cases.map(async ([seed, pattern]) => {
        const file = writeSeedFile(seed);
        try {
          const run = await runSandboxCli(["--port", "0", "--seed", file.file]);
          expect(run.code).toBe(2);
          expect(run.stdout).toBe("");
          expect(run.stderr).toMatch(pattern);
        } finally {
          file.remove();
        }
      }),
    );
  });

  it("a seed file that cannot be read exits with status 2", async () => {
    const missing = await runSandboxCli(["--seed", "/nonexistent/seed.json"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Cannot read the seed file/);
  });

  it("bad arguments exit with status 2", async () => {
    const cases = [
      ["--port", "abc"],
      ["--colour"],
      ["--data-delay-ms", "600001"],
      ["--data-delay-ms", "-5"],
      ["--data-delay-ms", "1.5"],
    ];
    const runs = await Promise.all(cases.map((args) => runSandboxCli(args)));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]!.join(" ")).toBe(2);
      expect(run.stdout).toBe("");
      if (cases[i]![0] === "--data-delay-ms")
        expect(run.stderr).toMatch(/--data-delay-ms must be a whole number from 0 to 600000/);
    });
  });

  it("names a flag it does not know as given, and a flag without its value, with the usage", async () => {
    const [unknown, stray, missing] = await Promise.all([
      runSandboxCli(["--port", "0", "--colour=red"]),
      runSandboxCli(["stray"]),
      runSandboxCli(["--quiet", "--seed"]),
    ]);
    for (const run of [unknown, stray, missing]) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("usage: npm run sandbox");
    }
    expect(unknown.stderr.split("\n")[0]).toBe('Unknown argument "--colour=red".');
    expect(stray.stderr.split("\n")[0]).toBe('Unknown argument "stray".');
    expect(missing.stderr.split("\n")[0]).toBe("--seed needs a value.");
  });

  it("names the demo keys on stderr, the Europe key for row-level security among them", async () => {
    const run = await runSandboxCli(["--port", "0"], {
      until: (out) => out.includes("\n"),
      timeoutMs: 30_000,
    });
    expect(run.stderr).toContain(DEMO_EUROPE_KEY);
    expect(run.stderr).toMatch(/data API: http:\/\/127\.0\.0\.1:\d+\/data\/<deploymentId>/);
  });

  it("--data-delay-ms makes every data-API query answer Continue wait while it runs", async () => {
    const sandbox = await spawnSandbox(undefined, { args: ["--data-delay-ms", "1500"] });
    try {
      const auth = `Bearer ${DEMO_API_KEY}`;
      const token = (await call(sandbox.url, "/api/v1/deployments/2/token", { method: "POST", auth })).json
        .cubeApiToken;
      const answers: unknown[] = [];
      for (;;) {
        const answer = await call(sandbox.url, "/data/2/cubejs-api/v1/load", {
          method: "POST",
          auth: token,
          body: { query: { measures: ["tickets.count"] } },
        });
        answers.push(answer.json.error ?? "data");
        if (answer.json.error !== "Continue wait") break;
      }
      // Holds of 1,000 ms: one "Continue wait", then the data.
      expect(answers).toEqual(["Continue wait", "data"]);
    } finally {
      await sandbox.stop();
    }
  });
});

describe("--data-port: the data API at an origin of its own", () => {
  it("a port that is not one, or none, exits with status 2", async () => {
    for (const args of [["--data-port", "70000"], ["--data-port"]]) {
      const run = await runSandboxCli(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("--data-port");
    }
  }, 60_000);

  it("deploymentUrl names the second port, which serves the data API and nothing else; the first no longer serves it", async () => {
    const sandbox = await spawnSandbox(undefined, { args: ["--data-port", "0"] });
    try {
      const auth = `Bearer ${DEMO_API_KEY}`;
      const { deploymentUrl } = (await call(sandbox.url, "/api/v1/deployments/2", { auth })).json;
      const data = new URL(deploymentUrl);
      expect(data.origin).not.toBe(sandbox.url);
      expect(data.hostname).toBe("127.0.0.1");
      expect(data.pathname).toBe("/data/2");
      const token = (await call(sandbox.url, "/api/v1/deployments/2/token", { method: "POST", auth })).json
        .cubeApiToken;
      const load = { method: "POST" as const, auth: token, body: { query: { measures: ["tickets.count"] } } };
      const atData = await call(data.origin, "/data/2/cubejs-api/v1/load", load);
      expect(atData.status).toBe(200);
      expect(atData.json.data).toHaveLength(1);
      // The tenant's origin no longer answers the data API, nor the data origin the management API.
      const atTenant = await call(sandbox.url, "/data/2/cubejs-api/v1/load", load);
      expect(atTenant.status).toBe(404);
      expect(atTenant.json.error).toMatch(/deploymentUrl/);
      const managementAtData = await call(data.origin, "/api/v1/deployments", { auth });
      expect(managementAtData.status).toBe(404);
    } finally {
      await sandbox.stop();
    }
  });
});

describe("the built-in demo data (no --seed)", () => {
  let sandbox: SpawnedSandbox;
  beforeAll(async () => {
    sandbox = await spawnSandbox(undefined, { chatDelayMs: 40 });
  });
  afterAll(async () => {
    await sandbox?.stop();
  });

  it("serves two deployments, an unscoped and a scoped key", async () => {
    const all = await call(sandbox.url, "/api/v1/deployments", { auth: `Bearer ${DEMO_API_KEY}` });
    expect(all.json.items.map((d: { name: string }) => d.name)).toEqual(["Production", "Staging"]);
    const scoped = await call(sandbox.url, "/api/v1/deployments/2/reports", {
      auth: `Bearer ${DEMO_SCOPED_KEY}`,
    });
    expect(scoped.status).toBe(403);
  });

  it("lists the demo workbook's reports and the other workbook's", async () => {
    const auth = `Bearer ${DEMO_API_KEY}`;
    const demo = await call(
      sandbox.url,
      `/api/v1/deployments/1/reports?externalWorkbookId=${DEMO_WORKBOOK.id}`,
      { auth },
    );
    expect(demo.json.items.length).toBeGreaterThanOrEqual(10);
    const other = await call(
      sandbox.url,
      `/api/v1/deployments/1/reports?externalWorkbookId=${OTHER_WORKBOOK.id}`,
      {
        auth,
      },
    );
    expect(other.json.items.map((r: { name: string }) => r.name)).toEqual(["Revenue by Region"]);
  });

  it("serves SCIM users over more than one page", async () => {
    const page = await call(sandbox.url, "/api/scim/v2/Users?count=2", {
      auth: `Api-Key ${DEMO_SCIM_TOKEN}`,
    });
    expect(page.json.totalResults).toBeGreaterThanOrEqual(5);
    expect(page.json.Resources).toHaveLength(2);
  });

  it("listens on 127.0.0.1 only, not on every interface", async () => {
    const { port } = new URL(sandbox.url);
    expect(await connects("127.0.0.1", Number(port))).toBe(true);
    expect(await connects("::1", Number(port))).toBe(false);
  });

  it("streams the agent's answer in pieces that arrive one by one, not as one buffered body", async () => {
    const res = await fetch(
      `${sandbox.url}/api/v1/public/sandbox/agents/sales-agent/chat/stream-chat-state`,
      {
        method: "POST",
        headers: { Authorization: `Api-Key ${DEMO_AGENT_KEY}`, "Content-Type": "application/json" },
        body: JSON.stringify({ input: "Revenue by region?", sessionSettings: { externalId: "demo" } }),
      },
    );
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let pieces = 0;
    let text = "";
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = decoder.decode(value, { stream: true });
      if (chunk.includes('"isDelta":true')) pieces += 1;
      text += chunk;
    }
    expect(text.trim().split("\n").at(-1)).toContain("__usage__");
    expect(pieces).toBeGreaterThan(2);
  });
});
