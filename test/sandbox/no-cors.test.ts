/**
 * `--no-cors`: the sandbox behaves like a tenant that allows no browser calls. No answer carries an
 * `Access-Control-*` header (errors, JSON, the chat stream, the abort) and a preflight is not
 * approved, so a browser page on another origin cannot read anything from it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_AGENT_KEY, DEMO_API_KEY } from "../../src/sandbox/demo.js";
import { type SpawnedSandbox, spawnSandbox } from "../support/spawn-sandbox.js";

let sandbox: SpawnedSandbox;
let withCors: SpawnedSandbox;
beforeAll(async () => {
  // One after the other: a start that fails must not leave the other running unreferenced.
  sandbox = await spawnSandbox(undefined, { args: ["--no-cors"] });
  withCors = await spawnSandbox();
});
afterAll(async () => {
  await Promise.all([sandbox?.stop(), withCors?.stop()]);
});

function corsHeaders(response: Response): string[] {
  return [...response.headers.keys()].filter((name) => name.toLowerCase().startsWith("access-control-"));
}

const CHAT = "/api/v1/public/sandbox/agents/sales-agent/chat";

async function everyKindOfAnswer(base: string): Promise<Response[]> {
  const auth = { Authorization: `Bearer ${DEMO_API_KEY}`, Origin: "https://addin.example.com" };
  const agent = { Authorization: `Api-Key ${DEMO_AGENT_KEY}`, "Content-Type": "application/json" };
  const stream = await fetch(`${base}${CHAT}/stream-chat-state`, {
    method: "POST",
    headers: agent,
    body: JSON.stringify({ input: "revenue by region", sessionSettings: { externalId: "ann@example.com" } }),
  });
  await stream.text();
  return [
    await fetch(`${base}/api/v1/deployments`, { headers: auth }),
    await fetch(`${base}/api/v1/deployments`, { headers: { Origin: "https://addin.example.com" } }),
    await fetch(`${base}/api/v1/nowhere`, { headers: auth }),
    stream,
    await fetch(`${base}${CHAT}/abort`, {
      method: "POST",
      headers: agent,
      body: JSON.stringify({ chatId: "x" }),
    }),
    await fetch(`${base}/api/v1/deployments`, {
      method: "OPTIONS",
      headers: {
        Origin: "https://addin.example.com",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "authorization",
      },
    }),
  ];
}

describe("the sandbox with --no-cors", () => {
  it("sends no Access-Control-* header on any answer", async () => {
    const answers = await everyKindOfAnswer(sandbox.url);
    expect(answers.map((r) => r.status)).toEqual([200, 401, 404, 200, expect.any(Number), 405]);
    for (const answer of answers) expect(corsHeaders(answer)).toEqual([]);
  });

  it("does not approve a preflight, while still serving the same requests without one", async () => {
    const preflight = await fetch(`${sandbox.url}/api/v1/deployments`, {
      method: "OPTIONS",
      headers: { Origin: "https://addin.example.com", "Access-Control-Request-Method": "DELETE" },
    });
    expect(preflight.ok).toBe(false);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const list = await fetch(`${sandbox.url}/api/v1/deployments`, {
      headers: { Authorization: `Bearer ${DEMO_API_KEY}` },
    });
    expect(await list.json()).toEqual({
      items: [expect.objectContaining({ id: 1 }), expect.objectContaining({ id: 2 })],
    });
  });

  it("without the flag, the same answers allow any origin (the default stays as it was)", async () => {
    const answers = await everyKindOfAnswer(withCors.url);
    for (const answer of answers) expect(answer.headers.get("access-control-allow-origin")).toBe("*");
  });
});
