/**
 * The URL and URLSearchParams the server installs in Apps Script (which has none) read
 * what the core gives them as the platform's own do, and refuse what they cannot read exactly.
 */
import { describe, expect, it } from "vitest";
import { MiniURL, MiniURLSearchParams } from "../../../../src/hosts/sheets/server/web-globals.js";

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

describe("MiniURL", () => {
  it.each(SAME_AS_NODE)("reads %s as the WHATWG URL does", (input) => {
    const ours = new MiniURL(input);
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
    expect(() => new MiniURL(input)).toThrow(TypeError);
    expect(() => new URL(input)).toThrow(TypeError);
  });

  it("refuses what it cannot read exactly (a non-ASCII host would need punycode; non-web schemes)", () => {
    expect(() => new MiniURL("https://bücher.example/")).toThrow(TypeError);
    expect(() => new MiniURL("file:///etc/passwd")).toThrow(TypeError);
    expect(() => new MiniURL("javascript:alert(1)")).toThrow(TypeError);
  });
});

describe("MiniURLSearchParams", () => {
  it("serialises like URLSearchParams (form encoding)", () => {
    const pairs: [string, string][] = [
      ["externalWorkbookId", "1AbC-_.~!*'() x/y?z&=é"],
      ["first", "100"],
      ["after", "cursor==+/"],
    ];
    const ours = new MiniURLSearchParams();
    const theirs = new URLSearchParams();
    for (const [k, v] of pairs) {
      ours.set(k, v);
      theirs.set(k, v);
    }
    ours.set("first", "50");
    theirs.set("first", "50");
    expect(ours.toString()).toBe(theirs.toString());
    expect(new MiniURLSearchParams(theirs.toString()).get("externalWorkbookId")).toBe(pairs[0]![1]);
  });
});
