/**
 * Fills in the manifest template (top-level manifest.xml): every URL in it starts with
 * {{BASE_URL}}, so the production address comes from one place (env ADDIN_BASE_URL at build time).
 * The rendering itself lives in src/addin-server/manifest-render.ts, which the add-in server uses
 * too; this module adds the build's default address.
 */
import { normalizeBaseUrl } from "../../src/addin-server/manifest-render.js";

export * from "../../src/addin-server/manifest-render.js";

const DEFAULT_BASE_URL = "https://localhost:3000";

/** The base URL the build uses: ADDIN_BASE_URL, or https://localhost:3000 for development. */
export function addinBaseUrl(env: Record<string, string | undefined> = process.env): string {
  return normalizeBaseUrl(env.ADDIN_BASE_URL?.trim() || DEFAULT_BASE_URL);
}
