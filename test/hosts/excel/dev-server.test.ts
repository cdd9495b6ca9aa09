/**
 * `npm run start:excel`'s parts: the development certificate made with openssl (a local authority
 * and a localhost certificate) and the HTTPS server of dist/excel/, checked over a real TLS
 * connection that trusts only that authority.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:https";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticServer, DIST_DIR, ensureDevCertificate } from "../../../src/hosts/excel/dev-server.js";
import { iconPng } from "../../../src/hosts/excel/icons.js";

let dir: string;
let ca: string;
let port: number;
let close: () => Promise<void>;

function get(path: string): Promise<{ status: number; type: string; location: string; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: "localhost", port, path, method: "GET", ca, servername: "localhost" },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            type: String(res.headers["content-type"] ?? ""),
            location: String(res.headers.location ?? ""),
            body: Buffer.concat(chunks),
          }),
        );
      },
    );
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "excel-certs-"));
  const cert = ensureDevCertificate(dir);
  expect(cert.created).toBe(true);
  ca = readFileSync(cert.caFile, "utf8");
  const server = createStaticServer(DIST_DIR, cert);
  await new Promise<void>((r) => server.listen(0, "localhost", r));
  port = (server.address() as AddressInfo).port;
  close = () => new Promise((r) => server.close(() => r()));
});

afterAll(async () => {
  await close?.();
  rmSync(dir, { recursive: true, force: true });
});

describe("the development server", () => {
  it("serves the built pane over HTTPS with a certificate the local authority vouches for", async () => {
    const page = await get("/taskpane.html");
    expect(page.status).toBe(200);
    expect(page.type).toBe("text/html; charset=utf-8");
    expect(page.body.toString()).toContain("appsforoffice.microsoft.com/lib/1/hosted/office.js");
    const manifest = await get("/manifest.xml");
    expect(manifest.type).toMatch(/^application\/xml/);
    const icon = await get("/assets/icon-80.png");
    expect(icon.type).toBe("image/png");
    expect(icon.body.equals(iconPng(80))).toBe(true);
  });

  it("sends / to the pane and refuses paths outside dist/excel", async () => {
    expect(await get("/")).toMatchObject({ status: 302, location: "/taskpane.html" });
    expect((await get("/../package.json")).status).toBe(404);
    expect((await get("/%2e%2e/%2e%2e/package.json")).status).toBe(404);
    expect((await get("/assets")).status).toBe(404);
  });

  it("reuses a certificate that is still valid", () => {
    expect(ensureDevCertificate(dir).created).toBe(false);
  });
});
