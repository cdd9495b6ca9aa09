/// <reference path="./core-js-pure.d.ts" />
/**
 * The two web globals the core needs that Apps Script's V8 runtime lacks: `URL` and
 * `URLSearchParams`, from core-js (`core-js-pure`, its WHATWG URL Standard implementation, not
 * installed on any other global). Apps Script has the ECMAScript built-ins only (no URL, no
 * TextDecoder, no timers), and the core parses every service URL with `new URL` (auth rule 1,
 * HTTPS only) and builds query strings with `URLSearchParams`. Installed only where the runtime has
 * none (Node and browsers keep their own). No `TextDecoder`: the server feeds the core text
 * (UrlFetchApp's `getContentText`), and the core's NDJSON decoder makes one only for bytes; the
 * Sheets tests run the built Code.js in a context without one.
 */
import CoreURL from "core-js-pure/web/url";
import CoreURLSearchParams from "core-js-pure/web/url-search-params";

export { CoreURL, CoreURLSearchParams };

/** Installs each missing global; a runtime that has its own keeps it. */
function installWebGlobals(target: Record<string, unknown> = globalThis as Record<string, unknown>): void {
  if (typeof target.URL !== "function") target.URL = CoreURL;
  if (typeof target.URLSearchParams !== "function") target.URLSearchParams = CoreURLSearchParams;
}

installWebGlobals();
