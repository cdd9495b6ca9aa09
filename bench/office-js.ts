/**
 * Office.js in the picture: the real Office.js, from the npm package @microsoft/office-js (a
 * devDependency for this bench only; the pane keeps loading Office.js from Microsoft's CDN, as
 * an add-in must), measured beside the pane's own first screen. What a cold open of the pane in
 * Excel downloads and evaluates before the pane's code is Office.js's loader (office.js) and the
 * host's script (for Excel on Windows, excel-win32-16.01.js); both are loaded here by a page of
 * their own, as classic scripts, outside Office (the host script finds no host to talk to: its
 * errors are counted, its evaluation is what is measured).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gzipSync } from "node:zlib";
import { serveStatic } from "./static-server.js";

/** The files of a cold open in Excel on Windows, in the order Office.js loads them. */
export const OFFICE_FILES = ["office.js", "excel-win32-16.01.js"] as const;

export interface OfficeJsPage {
  url: string;
  /** Both files gzipped (level 9), bytes. */
  gzBytes: number;
  version: string;
  close(): Promise<void>;
}

/** A page that loads the package's office.js and Excel host script, then marks "office-evaluated". */
export async function serveOfficeJs(): Promise<OfficeJsPage> {
  const require = createRequire(import.meta.url);
  const pkg = require.resolve("@microsoft/office-js/package.json");
  const { version } = JSON.parse(readFileSync(pkg, "utf8")) as { version: string };
  const from = join(dirname(pkg), "dist");
  const dir = mkdtempSync(join(tmpdir(), "rp-bench-office-js-"));
  let gzBytes = 0;
  for (const file of OFFICE_FILES) {
    copyFileSync(join(from, file), join(dir, file));
    gzBytes += gzipSync(readFileSync(join(from, file)), { level: 9 }).length;
  }
  const scripts = OFFICE_FILES.map((f) => `<script src="./${f}"></script>`).join("\n    ");
  writeFileSync(
    join(dir, "index.html"),
    `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" href="data:," />
    <title>Office.js from @microsoft/office-js (bench)</title>
    ${scripts}
  </head>
  <body>
    <script>performance.mark("office-evaluated");</script>
  </body>
</html>`,
  );
  const server = await serveStatic(dir);
  return {
    url: server.url,
    gzBytes,
    version,
    async close() {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
