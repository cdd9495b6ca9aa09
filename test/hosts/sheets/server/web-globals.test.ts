/**
 * The URL and URLSearchParams the built server (dist/sheets/Code.js) installs in Apps Script, which
 * has none (core-js's, web-globals.ts), read what the core gives them as Node's own do and refuse
 * what Node refuses. Read in the Apps Script world of the tests (a context with the ECMAScript
 * built-ins only), where core-js finds no URL of the runtime's and uses its own. No TextDecoder.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { loadAppsScript } from "../../../support/apps-script.js";

let CoreURL: typeof URL;
let CoreURLSearchParams: typeof URLSearchParams;
let scriptGlobal: Record<string, unknown>;
beforeAll(() => {
  scriptGlobal = loadAppsScript().global;
  CoreURL = scriptGlobal.URL as typeof URL;
  CoreURLSearchParams = scriptGlobal.URLSearchParams as typeof URLSearchParams;
});

/** Whether `make` throws a TypeError (of the script's realm or this one). */
function throwsTypeError(make: () => unknown): boolean {
  try {
    make();
  } catch (error) {
    return (error as Error).name === "TypeError";
  }
  return false;
}

describe("the script's globals", () => {
  it("are core-js's, not Node's, and there is no TextDecoder", () => {
    expect(CoreURL).toBeTypeOf("function");
    expect(CoreURL).not.toBe(URL);
    expect(CoreURLSearchParams).not.toBe(URLSearchParams);
    expect(scriptGlobal.TextDecoder).toBeUndefined();
  });
});

const SAME_AS_NODE = [
  "https://acme.reporting.example",
  "https://ACME.Reporting.Example:443/",
  "https://acme.reporting.example:8443/base/path/",
  "http://127.0.0.1:53211",
  "http://localhost:8080/x?y=1#z",
  "http://[::1]:3000/api",
  "https://user:pa ss@acme.example/",
  "https://evil.example\\@acme.example/",
  "https://acme.example@evil.example/",
  "https://acme.example/a/./b/../c",
  "https://acme.example/with space/é?q=a b#frag ment",
  "HTTPS://acme.example/api/v1/public/acme/agents/a1/chat/stream-chat-state",
  "  https://acme.example/trimmed  ",
  "https:acme.example/no-slashes",
  "https:///acme.example/three-slashes",
  // A non-ASCII host (punycode) and other schemes: read as the standard does; the core's own
  // rules then refuse what is not https (auth rule 1).
  "https://bücher.example/",
  "file:///etc/passwd",
  "javascript:alert(1)",
];

const INVALID = [
  "",
  "acme.example",
  "/relative",
  "https://",
  "https://exa mple.com/",
  "https://acme.example:99999/",
  "https://acme.example:12ab/",
  "https://[::1/",
  "https://300.1.1.1/",
];

describe("CoreURL", () => {
  it.each(SAME_AS_NODE)("reads %s as the WHATWG URL does", (input) => {
    const ours = new CoreURL(input);
    const theirs = new URL(input);
    for (const key of [
      "protocol",
      "username",
      "password",
      "hostname",
      "port",
      "host",
      "origin",
      "pathname",
      "search",
      "hash",
      "href",
    ] as const) {
      expect(ours[key], key).toBe(theirs[key]);
    }
    expect(String(ours)).toBe(String(theirs));
  });

  it.each(INVALID)("refuses %j", (input) => {
    expect(throwsTypeError(() => new CoreURL(input))).toBe(true);
    expect(throwsTypeError(() => new URL(input))).toBe(true);
  });
});

describe("CoreURLSearchParams", () => {
  it("serialises like URLSearchParams (form encoding)", () => {
    const pairs: [string, string][] = [
      ["externalWorkbookId", "1AbC-_.~!*'() x/y?z&=é"],
      ["first", "100"],
      ["after", "cursor==+/"],
    ];
    const ours = new CoreURLSearchParams();
    const theirs = new URLSearchParams();
    for (const [k, v] of pairs) {
      ours.set(k, v);
      theirs.set(k, v);
    }
    ours.set("first", "50");
    theirs.set("first", "50");
    expect(ours.toString()).toBe(theirs.toString());
    expect(new CoreURLSearchParams(theirs.toString()).get("externalWorkbookId")).toBe(pairs[0]![1]);
  });
});
