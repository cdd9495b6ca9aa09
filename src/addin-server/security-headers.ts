/**
 * The headers every answer of the add-in server carries. The Content-Security-Policy is sent as a
 * response header because `frame-ancestors` has no effect in a `<meta>` tag; the page keeps its meta
 * policy too, for hosts that serve dist/excel without this server (both then apply).
 */

/**
 * Who may frame the pages: the add-in server itself and the Microsoft 365 hosts that show add-ins
 * in a frame on the web (Excel on the web runs under officeapps.live.com inside SharePoint,
 * OneDrive, office.com, microsoft365.com and cloud.microsoft). Desktop Excel shows the pane as a
 * top-level webview, which frame-ancestors does not restrict.
 */
export const OFFICE_FRAME_ANCESTORS = [
  "'self'",
  "https://*.officeapps.live.com",
  "https://*.sharepoint.com",
  "https://onedrive.live.com",
  "https://*.onedrive.live.com",
  "https://office.com",
  "https://*.office.com",
  "https://*.office365.com",
  "https://*.microsoft365.com",
  "https://*.cloud.microsoft",
];

/** Microsoft's CDN for Office.js: the one script the pane loads from elsewhere. */
const OFFICE_JS_ORIGIN = "https://appsforoffice.microsoft.com";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `script-src 'self' ${OFFICE_JS_ORIGIN}`,
  // Fluent UI (Griffel) injects its styles at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  // 'self' for the relay; https: for tenants that accept calls from the page directly.
  "connect-src 'self' https:",
  `frame-ancestors ${OFFICE_FRAME_ANCESTORS.join(" ")}`,
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join("; ");

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
export function securityHeaders(secure: boolean, relayed = false): Record<string, string> {
  return {
    "Content-Security-Policy": relayed ? RELAY_CONTENT_SECURITY_POLICY : CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    ...(secure ? { "Strict-Transport-Security": "max-age=31536000" } : {}),
  };
}
