/**
 * The localhost certificate for sideloading, from Microsoft's office-addin-dev-certs (the pair
 * Office's own project templates use): `~/.office-addin-dev-certs/localhost.crt|key`, signed by
 * its "Developer CA for Microsoft Office Add-ins". Made here when missing or expiring; trusting the
 * authority is the user's step (`npx office-addin-dev-certs install`), never done behind their back.
 */
import { X509Certificate } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import * as devCerts from "office-addin-dev-certs";

export interface DevCertificate {
  cert: string;
  key: string;
  /** The authority to trust (PEM). */
  caFile: string;
  /** True when this call made the files (the authority then needs trusting again). */
  generated: boolean;
}

/** The files of office-addin-dev-certs in `dir` (its own default folder unless given). */
function devCertificatePaths(dir: string = join(homedir(), ".office-addin-dev-certs")) {
  return { ca: join(dir, "ca.crt"), cert: join(dir, "localhost.crt"), key: join(dir, "localhost.key") };
}

function validForADay(file: string): boolean {
  try {
    const cert = new X509Certificate(readFileSync(file));
    return new Date(cert.validTo).getTime() - Date.now() > 86_400_000;
  } catch {
    return false;
  }
}

export async function devCertificate(dir?: string): Promise<DevCertificate> {
  const paths = devCertificatePaths(dir);
  let generated = false;
  const usable = [paths.ca, paths.cert, paths.key].every((f) => existsSync(f)) && validForADay(paths.cert);
  if (!usable) {
    // generateCertificates writes only when the authority file is absent: start from nothing.
    for (const file of [paths.ca, paths.cert, paths.key]) rmSync(file, { force: true });
    // It reports on stdout, which belongs to our one URL line: send its words to stderr.
    const log = console.log;
    console.log = (...args: unknown[]) => console.error(...args);
    try {
      await devCerts.generateCertificates(paths.ca, paths.cert, paths.key, 30, ["localhost", "127.0.0.1"]);
    } finally {
      console.log = log;
    }
    generated = true;
  }
  return {
    cert: readFileSync(paths.cert, "utf8"),
    key: readFileSync(paths.key, "utf8"),
    caFile: paths.ca,
    generated,
  };
}
