/**
 * The headers every answer of the add-in server carries. The Content-Security-Policy is sent as a
 * response header because `frame-ancestors` has no effect in a `<meta>` tag; the page keeps its meta
 * policy too, for hosts that serve dist/excel without this server (both then apply).
 */

/**
 * Who may frame the pages by default. A browser checks frame-ancestors against EVERY ancestor of
 * the frame, so both the Office frame that holds the pane and the pages around it must be listed,
 * wherever a customer runs Excel on the web:
 * - Microsoft 365: Excel on the web's frame (officeapps.live.com) inside SharePoint and OneDrive
 *   (sharepoint.com, onedrive.live.com), office.com, microsoft365.com and cloud.microsoft (the
 *   Microsoft 365 apps' domain, e.g. excel.cloud.microsoft, m365.cloud.microsoft); Microsoft's list
 *   for apps framed in Microsoft 365 hosts:
 *   learn.microsoft.com/microsoftteams/platform/tabs/how-to/tab-requirements;
 * - Teams, which shows Excel files and add-ins inside its own page: teams.microsoft.com and its
 *   subdomains, teams.cloud.microsoft (covered by *.cloud.microsoft), and skype.com (same list);
 * - the US government clouds (GCC High, DoD): Office on the web under *.online.office365.us
 *   (gov.online.office365.us, dod.online.office365.us), SharePoint under sharepoint.us and, for DoD,
 *   sharepoint-mil.us, Teams under teams.microsoft.us (Microsoft's GCC High and DoD endpoint
 *   lists: learn.microsoft.com/microsoft-365/enterprise/microsoft-365-u-s-government-gcc-high-endpoints,
 *   .../microsoft-365-u-s-government-dod-endpoints); GCC itself uses the worldwide hosts;
 * - Office 365 operated by 21Vianet (China): Office on the web under partner.officewebapps.cn and
 *   SharePoint under sharepoint.cn (learn.microsoft.com/microsoft-365/enterprise/urls-and-ip-address-ranges-21vianet).
 * Desktop Excel shows the pane as a top-level webview, which frame-ancestors does not restrict.
 * An admin can replace the list (`--frame-ancestors`, env FRAME_ANCESTORS: parseFrameAncestors).
 */
export const DEFAULT_FRAME_ANCESTORS: readonly string[] = [
  "'self'",
  // Microsoft 365 (worldwide and GCC)
  "https://*.officeapps.live.com",
  "https://*.sharepoint.com",
  "https://onedrive.live.com",
  "https://*.onedrive.live.com",
  "https://office.com",
  "https://*.office.com",
  "https://*.office365.com",
  "https://*.microsoft365.com",
  "https://*.cloud.microsoft",
  // Teams
  "https://teams.microsoft.com",
  "https://*.teams.microsoft.com",
  "https://*.skype.com",
  // US government clouds (GCC High, DoD)
  "https://*.office365.us",
  "https://*.sharepoint.us",
  "https://*.sharepoint-mil.us",
  "https://*.teams.microsoft.us",
  // Office 365 operated by 21Vianet
  "https://*.officewebapps.cn",
  "https://*.sharepoint.cn",
];

/** The default's old name, kept for what imports it. */
export const OFFICE_FRAME_ANCESTORS = DEFAULT_FRAME_ANCESTORS;

export class FrameAncestorsError extends Error {}

/**
 * One frame-ancestors list from an admin's text: sources separated by spaces or commas, each
 * `'self'`, or an https origin `https://host[:port]` whose host may start with `*.`; `'none'`
 * only alone. Anything else (another scheme, a path, a bare `*`, a keyword, a character that could
 * end the directive) is refused with a message naming it.
 */
export function parseFrameAncestors(text: string): string[] {
  const sources = text.split(/[\s,]+/).filter(Boolean);
  if (sources.length === 0) throw new FrameAncestorsError("frame-ancestors needs at least one source.");
  for (const source of sources) {
    if (source === "'self'") continue;
    if (source === "'none'") {
      if (sources.length > 1) throw new FrameAncestorsError("'none' in frame-ancestors must stand alone.");
      continue;
    }
    if (source.startsWith("'")) {
      throw new FrameAncestorsError(
        `"${source}" is not a frame-ancestors source: use 'self' or https://host.`,
      );
    }
    const match = /^([a-z][a-z0-9+.-]*):\/\/(\*\.)?([a-z0-9-]+(?:\.[a-z0-9-]+)*)(:\d{1,5})?(\/.*)?$/i.exec(
      source,
    );
    if (!match) {
      throw new FrameAncestorsError(
        `"${source}" is not a frame-ancestors source: give https://host[:port], host may start with *.`,
      );
    }
    const [, scheme, , , , path] = match;
    if (scheme!.toLowerCase() !== "https") {
      throw new FrameAncestorsError(
        `"${source}" must use https:// (Office shows add-ins only in HTTPS pages).`,
      );
    }
    if (path) throw new FrameAncestorsError(`"${source}" must be an origin only (no path).`);
  }
  return sources;
}

/** Microsoft's CDN for Office.js: the one script the pane loads from elsewhere. */
const OFFICE_JS_ORIGIN = "https://appsforoffice.microsoft.com";

/** The pages' policy, with `frameAncestors` (the default list unless an admin gave one). */
export function contentSecurityPolicy(frameAncestors: readonly string[] = DEFAULT_FRAME_ANCESTORS): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${OFFICE_JS_ORIGIN}`,
    // Fluent UI (Griffel) injects its styles at run time.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    // 'self' for the relay; https: for tenants that accept calls from the page directly.
    "connect-src 'self' https:",
    `frame-ancestors ${frameAncestors.join(" ")}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/**
 * The policy of a relayed answer. What a tenant answers is served from the add-in's own origin, so
 * opened by hand it must run nothing and reach nothing: `sandbox` gives it an opaque origin (no
 * access to the add-in's storage, where the keys are) and no scripts; it is never framed. The
 * pane's fetch calls are not affected (a policy applies to documents, not to fetched data).
 */
const RELAY_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'; sandbox";

/**
 * The security headers of one answer; HSTS only when the server itself speaks HTTPS. A relayed
 * answer gets RELAY_CONTENT_SECURITY_POLICY instead of the pages' policy.
 */
export function securityHeaders(
  secure: boolean,
  relayed = false,
  frameAncestors: readonly string[] = DEFAULT_FRAME_ANCESTORS,
): Record<string, string> {
  return {
    "Content-Security-Policy": relayed
      ? RELAY_CONTENT_SECURITY_POLICY
      : contentSecurityPolicy(frameAncestors),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    ...(secure ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}
