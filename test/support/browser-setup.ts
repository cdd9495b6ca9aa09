/**
 * The browser tier's global setup (vite.config.ts): what its test files share instead of starting
 * their own. One Chromium for the whole run (a Playwright browser server that every file connects
 * to), and one build of the preview page (`buildPreview`) that every file's preview serves.
 *
 * Both are made on first demand, once, and handed out by a small loopback server whose address the
 * test files get through `inject("browserKit")`: a run of only the Excel page's tests never builds
 * the preview, and the unit and DOM tiers start at once instead of waiting for a build they do not
 * use. A file asks and waits for the answer (a positive signal, not a poll against a deadline); a
 * build that failed answers its error to every file that asks.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type BrowserServer, chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { buildPreview } from "../../tooling/preview/server.js";
import { CHROMIUM_ARGS, CHROMIUM_PATH, type SharedPart } from "./browser.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const previewDir = mkdtempSync(join(tmpdir(), "preview-built-"));
  let chromiumServer: Promise<BrowserServer> | null = null;
  let preview: Promise<string> | null = null;

  const make: Record<SharedPart, () => Promise<string>> = {
    chromium: () => {
      chromiumServer ??= chromium.launchServer({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
      return chromiumServer.then((server) => server.wsEndpoint());
    },
    preview: () => {
      preview ??= buildPreview(previewDir).then(() => previewDir);
      return preview;
    },
  };

  // No time limit on a request: a file waits as long as the build takes.
  const kit = createServer({ requestTimeout: 0 }, (req, res) => {
    const part = (req.url ?? "").slice(1) as SharedPart;
    if (!Object.hasOwn(make, part)) {
      res.writeHead(404).end();
      return;
    }
    make[part]().then(
      (answer) => res.writeHead(200, { "Content-Type": "text/plain" }).end(answer),
      (error: unknown) =>
        res
          .writeHead(500, { "Content-Type": "text/plain" })
          .end(error instanceof Error ? (error.stack ?? error.message) : String(error)),
    );
  });
  await new Promise<void>((resolve) => kit.listen(0, "127.0.0.1", resolve));
  project.provide("browserKit", `http://127.0.0.1:${(kit.address() as AddressInfo).port}`);

  return async () => {
    kit.closeAllConnections();
    await new Promise((resolve) => kit.close(resolve));
    const server = await chromiumServer?.catch(() => null);
    await server?.close();
    await preview?.catch(() => null);
    rmSync(previewDir, { recursive: true, force: true });
  };
}
