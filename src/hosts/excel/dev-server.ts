/**
 * `npm run start:excel`: builds dist/excel/ and serves it over HTTPS on https://localhost:3000, the
 * address the development manifest points at, with a development certificate made here by
 * `openssl` (a local certificate authority plus a localhost certificate, in the git-ignored .certs/
 * folder). Trust the authority once (the printed steps) and Excel loads the pane without warnings.
 *
 * Flags: --no-build (serve what dist/excel holds), --port N (default 3000, or env PORT).
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import { extname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(fileURLToPath(new URL(".", import.meta.url)), "../../..");
export const DIST_DIR = join(ROOT, "dist/excel");
export const CERT_DIR = join(ROOT, ".certs");

export interface DevCertificate {
  key: string;
  cert: string;
  /** The authority to trust (PEM file). */
  caFile: string;
  created: boolean;
}

const CA_CONFIG = `[req]
distinguished_name = dn
prompt = no
x509_extensions = v3_ca
[dn]
CN = Reporting Platform add-in development CA
[v3_ca]
basicConstraints = critical, CA:TRUE
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
`;

const LEAF_EXTENSIONS = `basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature, keyEncipherment
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
`;

function openssl(args: string[], cwd: string) {
  try {
    execFileSync("openssl", args, { cwd, stdio: ["ignore", "ignore", "pipe"] });
  } catch (error) {
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    throw new Error(
      `openssl ${args[0]} failed${stderr ? `: ${stderr}` : ""}. Install OpenSSL (it ships with Git for Windows and macOS) and run again.`,
    );
  }
}

/** True when `file` is a certificate still valid for at least `seconds`. */
function validFor(file: string, seconds: number, cwd: string): boolean {
  const result = spawnSync("openssl", ["x509", "-checkend", String(seconds), "-noout", "-in", file], {
    cwd,
    stdio: "ignore",
  });
  return result.status === 0;
}

/**
 * The development certificate in `dir`: reused while valid for another day, otherwise made anew.
 * The authority is kept as long as it is valid, so trusting it once lasts across renewals.
 */
export function ensureDevCertificate(dir: string = CERT_DIR): DevCertificate {
  mkdirSync(dir, { recursive: true });
  const caKey = join(dir, "ca.key");
  const caFile = join(dir, "ca.crt");
  const key = join(dir, "localhost.key");
  const cert = join(dir, "localhost.crt");
  let created = false;
  if (!existsSync(caKey) || !existsSync(caFile) || !validFor(caFile, 30 * 86400, dir)) {
    writeFileSync(join(dir, "ca.cnf"), CA_CONFIG);
    openssl(
      ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-sha256", "-days", "825"].concat([
        "-keyout",
        "ca.key",
        "-out",
        "ca.crt",
        "-config",
        "ca.cnf",
      ]),
      dir,
    );
    created = true;
  }
  if (created || !existsSync(key) || !existsSync(cert) || !validFor(cert, 86400, dir)) {
    writeFileSync(join(dir, "localhost.ext"), LEAF_EXTENSIONS);
    openssl(
      ["req", "-newkey", "rsa:2048", "-nodes", "-keyout", "localhost.key", "-out", "localhost.csr"].concat([
        "-subj",
        "/CN=localhost",
      ]),
      dir,
    );
    openssl(
      ["x509", "-req", "-in", "localhost.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial"].concat(
        ["-out", "localhost.crt", "-days", "397", "-sha256", "-extfile", "localhost.ext"],
      ),
      dir,
    );
    created = true;
  }
  return { key: readFileSync(key, "utf8"), cert: readFileSync(cert, "utf8"), caFile, created };
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".png": "image/png",
  ".svg": "image/svg+xml",
  ".woff2": "font/woff2",
};

/** An HTTPS server of the files in `dir` (nothing outside it; no directory listings). */
export function createStaticServer(dir: string, tls: { key: string; cert: string }): Server {
  const base = resolve(dir);
  return createServer(tls, (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? "/", "https://localhost").pathname);
    if (path === "/") {
      res.writeHead(302, { Location: "/taskpane.html" }).end();
      return;
    }
    const file = resolve(base, `.${path}`);
    const inside = file === base || file.startsWith(base + sep);
    if (!inside || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end(`Not found: ${path}\n`);
      return;
    }
    res.writeHead(200, {
      "Content-Type": TYPES[extname(file)] ?? "application/octet-stream",
      // Office caches add-in files hard; during development every load should see the last build.
      "Cache-Control": "no-store",
    });
    res.end(readFileSync(file));
  });
}

function instructions(url: string, cert: DevCertificate): string {
  const manifest = relative(process.cwd(), join(DIST_DIR, "manifest.xml")) || "dist/excel/manifest.xml";
  const ca = relative(process.cwd(), cert.caFile);
  return `
Reporting Platform add-in for Excel: serving ${relative(process.cwd(), DIST_DIR)} at ${url}

Trust the development certificate once (it is made by openssl in .certs/, never committed):
  Windows  certutil -user -addstore Root ${ca}
           (or double-click ${ca} > Install Certificate > Current User > Trusted Root Certification Authorities)
  macOS    sudo security add-trusted-cert -d -r trustRoot -k /Library/Keychains/System.keychain ${ca}
  Linux    Chromium/Edge: Settings > Privacy and security > Security > Manage certificates > Authorities > Import ${ca}
  Check: ${url}/taskpane.html opens in a browser without a certificate warning.

Sideload ${manifest}:
  Excel on the web  Open a workbook > Home > Add-ins > More Add-ins > MY ADD-INS
                    > Upload My Add-in > choose ${manifest} > Upload.
  Excel on Windows  Share a folder holding manifest.xml (e.g. \\\\localhost\\addins), add that share in
                    File > Options > Trust Center > Trust Center Settings > Trusted Add-in Catalogs
                    (tick "Show in Menu"), restart Excel, then Home > Add-ins > More Add-ins > SHARED FOLDER > Add.
  Excel on Mac      Copy ${manifest} to
                    ~/Library/Containers/com.microsoft.Excel/Data/Documents/wef/ (create wef if needed),
                    restart Excel, then Home > Add-ins (or Insert > My Add-ins) > the developer add-in.
Then Home > Reports opens the pane; right-click a cell > Disconnect report here runs the command.
Rebuild with \`npm run build:excel\` (a running server picks the new files up). Ctrl+C stops.
`;
}

function build() {
  const vite = join(ROOT, "node_modules/vite/bin/vite.js");
  const result = spawnSync(process.execPath, [vite, "build", "--mode", "excel"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("vite build --mode excel failed (see above)");
}

function builtBaseUrl(): string | null {
  try {
    const xml = readFileSync(join(DIST_DIR, "manifest.xml"), "utf8");
    const match = /<SourceLocation DefaultValue="([^"]+)\/taskpane\.html"/.exec(xml);
    return match ? match[1]! : null;
  } catch {
    return null;
  }
}

function main(argv: string[]) {
  const portFlag = argv.indexOf("--port");
  const port = Number(portFlag >= 0 ? argv[portFlag + 1] : (process.env.PORT ?? 3000));
  if (!argv.includes("--no-build")) build();
  if (!existsSync(join(DIST_DIR, "taskpane.html"))) {
    throw new Error("dist/excel/taskpane.html is missing: run `npm run build:excel` first.");
  }
  const cert = ensureDevCertificate();
  const url = `https://localhost:${port}`;
  const built = builtBaseUrl();
  if (built && built !== url) {
    console.warn(
      `Note: dist/excel/manifest.xml points at ${built}, not ${url}. For this server, build with ADDIN_BASE_URL=${url}.`,
    );
  }
  const server = createStaticServer(DIST_DIR, cert);
  server.on("error", (error: NodeJS.ErrnoException) => {
    console.error(
      error.code === "EADDRINUSE" ? `Port ${port} is in use: stop what runs there or pass --port.` : error,
    );
    process.exit(1);
  });
  server.listen(port, () => console.log(instructions(url, cert)));
  const stop = () => server.close(() => process.exit(0));
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
