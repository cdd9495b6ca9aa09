/**
 * The answers the add-in server makes before its routes run (a request Node or the Node adapter
 * refuses: a backslash in the path, a host with a user name, an unknown Expect, headers past Node's
 * 16 KB) carry the same security headers as every other answer.
 */
import { connect } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type RunningAddinServer, startAddinServer } from "../../src/addin-server/server.js";
import { parseTenantList } from "../../src/addin-server/tenants.js";

const DIST = join(resolve(dirname(fileURLToPath(import.meta.url)), "../.."), "dist/excel");

let server: RunningAddinServer;
const logs: string[] = [];
beforeAll(async () => {
  server = await startAddinServer({
    distDir: DIST,
    port: 0,
    tenants: parseTenantList([]),
    log: (line) => logs.push(line),
  });
});
afterAll(async () => {
  await server?.close();
});

/** Sends raw bytes, returns the status and headers of the answer (the socket closes or the head ends). */
function rawExchange(request: string): Promise<{ status: number; headers: Map<string, string> }> {
  return new Promise((resolvePromise, reject) => {
    const socket = connect(server.port, "127.0.0.1");
    let text = "";
    const done = () => {
      const head = text.split("\r\n\r\n")[0] ?? "";
      const [statusLine = "", ...lines] = head.split("\r\n");
      const headers = new Map<string, string>();
      for (const line of lines) {
        const colon = line.indexOf(":");
        if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      socket.destroy();
      resolvePromise({ status: Number(statusLine.split(" ")[1]), headers });
    };
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      text += chunk;
      if (text.includes("\r\n\r\n")) done();
    });
    socket.on("end", done);
    socket.on("error", (error) => (text ? done() : reject(error)));
    socket.write(request);
  });
}

const SECURITY_HEADERS = ["content-security-policy", "x-content-type-options", "referrer-policy"];

describe("answers made before the routes run", () => {
  const cases: [string, string, number][] = [
    ["a backslash in the path", "GET /a\\b HTTP/1.1\r\nHost: localhost\r\n\r\n", 400],
    ["a host with a user name", "GET / HTTP/1.1\r\nHost: a@b\r\n\r\n", 400],
    ["an Expect the server does not meet", "GET / HTTP/1.1\r\nHost: localhost\r\nExpect: x\r\n\r\n", 417],
    [
      "headers past Node's 16 KB",
      `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${"a".repeat(20 * 1024)}\r\n\r\n`,
      431,
    ],
    ["a request line that is not HTTP", "NOT HTTP\r\n\r\n", 400],
  ];
  for (const [what, request, status] of cases) {
    it(`${what}: ${status}, with the security headers`, async () => {
      const answer = await rawExchange(request);
      expect(answer.status).toBe(status);
      for (const name of SECURITY_HEADERS) expect(answer.headers.has(name), name).toBe(true);
      expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
    });
  }

  it("keeps serving afterwards", async () => {
    await rawExchange("GET /a\\b HTTP/1.1\r\nHost: localhost\r\n\r\n");
    expect((await fetch(`${server.url}/config.json`)).status).toBe(200);
  });
});
