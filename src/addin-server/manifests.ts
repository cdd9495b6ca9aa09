/**
 * The manifests the add-in server hands out (`/manifest.xml`, `/manifest.json`), rendered at start
 * from its public base URL, so one build (one container image) serves any address: the build's own
 * dist/excel/manifest.xml names the address of that build only (ADDIN_BASE_URL at build time).
 *
 * The template is the repository's manifest.xml when run from the sources, or the copy the
 * production build puts beside dist/server/main.js; the version is the one the build wrote into
 * dist/excel/manifest.json, so the manifests always describe the pane being served.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import { readManifestValues, renderManifest, renderUnifiedManifest } from "./manifest-render.js";

/** The template's name beside the bundled server (tooling/server/build.ts copies it there). */
export const BUNDLED_TEMPLATE_NAME = "manifest.template.xml";

export interface ServedManifests {
  xml: string;
  json: string;
}

const HERE = dirname(fileURLToPath(import.meta.url));

/** The manifest template: beside the bundle (dist/server/), else the repository's top-level one. */
export function manifestTemplatePath(): string | null {
  for (const candidate of [join(HERE, BUNDLED_TEMPLATE_NAME), resolve(HERE, "../../manifest.xml")]) {
    if (existsSync(candidate)) return candidate;
  }
  return null;
}

/** Both manifests for `baseUrl` (https, see normalizeBaseUrl), as the build renders them. */
export function renderServedManifests(template: string, baseUrl: string, version: string): ServedManifests {
  const xml = renderManifest(template, { baseUrl, version });
  const json = `${JSON.stringify(renderUnifiedManifest(readManifestValues(xml), { version }), null, 2)}\n`;
  return { xml, json };
}

/**
 * The manifests for `baseUrl`, from the template and the built pane's version; null when either is
 * missing (the built files are then served as they are).
 */
export function loadServedManifests(distDir: string, baseUrl: string): ServedManifests | null {
  const templatePath = manifestTemplatePath();
  const builtJson = join(distDir, "manifest.json");
  if (!templatePath || !existsSync(builtJson)) return null;
  const { version } = JSON.parse(readFileSync(builtJson, "utf8")) as { version?: unknown };
  if (typeof version !== "string") return null;
  return renderServedManifests(readFileSync(templatePath, "utf8"), baseUrl, version);
}

/**
 * `/manifest.xml` and `/manifest.json` from `current()` (null: the built files, by the static
 * handler registered after these).
 */
export function registerManifestRoutes(app: Hono, current: () => ServedManifests | null): void {
  app.get("/manifest.xml", (c, next) => {
    const manifests = current();
    if (!manifests) return next();
    c.header("Cache-Control", "no-cache");
    c.header("Content-Type", "application/xml; charset=utf-8");
    return c.body(manifests.xml);
  });
  app.get("/manifest.json", (c, next) => {
    const manifests = current();
    if (!manifests) return next();
    c.header("Cache-Control", "no-cache");
    c.header("Content-Type", "application/json; charset=utf-8");
    return c.body(manifests.json);
  });
}
