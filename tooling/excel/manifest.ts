/**
 * Fills in the manifest template (top-level manifest.xml): every URL in it starts with
 * {{BASE_URL}}, so the production address comes from one place (env ADDIN_BASE_URL at build time).
 */

const DEFAULT_BASE_URL = "https://localhost:3000";

/** The base URL the build uses: ADDIN_BASE_URL, or https://localhost:3000 for development. */
export function addinBaseUrl(env: Record<string, string | undefined> = process.env): string {
  return normalizeBaseUrl(env.ADDIN_BASE_URL?.trim() || DEFAULT_BASE_URL);
}

/** "https://host[:port][/path]" without a trailing slash; anything but https is refused. */
export function normalizeBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error(`ADDIN_BASE_URL "${text}" is not a URL. Set it like https://addin.example.com`);
  }
  if (url.protocol !== "https:") {
    throw new Error(`ADDIN_BASE_URL must be https (Office loads add-ins only over HTTPS), got "${text}"`);
  }
  if (url.search || url.hash || url.username || url.password) {
    throw new Error(`ADDIN_BASE_URL must be a plain https://host[/path], got "${text}"`);
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, "")}`;
}

/** package.json's "0.1.0" as the manifest's four-part "0.1.0.0". */
export function manifestVersion(packageVersion: string): string {
  const parts = packageVersion.split(/[-+]/)[0]!.split(".");
  while (parts.length < 4) parts.push("0");
  if (parts.length > 4 || !parts.every((p) => /^\d{1,5}$/.test(p))) {
    throw new Error(`package.json version "${packageVersion}" cannot be a manifest version (n.n.n.n)`);
  }
  return parts.join(".");
}

function escapeXmlAttribute(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

/**
 * The manifest with its placeholders filled in (a placeholder left over is an error) and without
 * the template's comments, which describe the template rather than this build.
 */
export function renderManifest(template: string, options: { baseUrl: string; version: string }): string {
  const values: Record<string, string> = {
    BASE_URL: escapeXmlAttribute(normalizeBaseUrl(options.baseUrl)),
    VERSION: manifestVersion(options.version),
  };
  return template
    .replace(/[ \t]*<!--[\s\S]*?-->\r?\n?/g, "")
    .replace(/\{\{([A-Z_]+)\}\}/g, (whole, name: string) => {
      const value = values[name];
      if (value === undefined) throw new Error(`manifest.xml: unknown placeholder ${whole}`);
      return value;
    });
}
