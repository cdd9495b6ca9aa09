/**
 * The two web globals the core needs that Apps Script's V8 runtime lacks: `URL` and
 * `URLSearchParams`. Apps Script has the ECMAScript built-ins only (no URL, no TextDecoder, no
 * timers), and the core parses every service URL with `new URL` (auth rule 1, HTTPS only) and
 * builds query strings with `URLSearchParams`. No `TextDecoder`: the server feeds the core text
 * (UrlFetchApp's `getContentText`), and the core's NDJSON decoder makes one only for bytes; the
 * Sheets tests run the built Code.js in a context without one.
 *
 * These are small, strict implementations of the parts the core uses, installed only where the
 * runtime has none (Node and browsers keep their own). They parse absolute http(s) URLs the way the
 * WHATWG URL standard does for what matters here: scheme and host lower-cased, default port
 * dropped, `\` read as `/`, the user info split at the last `@`, dot segments resolved. Anything
 * they cannot read exactly (non-ASCII host names, which would need punycode; relative URLs) is
 * refused with a TypeError, as `new URL` refuses what it cannot parse: refusing is safe here, since
 * the core then reports an invalid URL and nothing is sent.
 */

const SPECIAL_PORTS: Record<string, string> = { "http:": "80", "https:": "443", "ws:": "80", "wss:": "443" };
/** A WHATWG percent-encode set: C0 controls, space, DEL and non-ASCII, plus `extra`. */
function encodeSet(extra: string): (ch: string) => boolean {
  return (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0x20 || code >= 0x7f || extra.includes(ch);
  };
}

function percentEncode(text: string, inSet: (ch: string) => boolean): string {
  let out = "";
  for (const ch of text) out += inSet(ch) ? encodeURIComponent(ch) : ch;
  return out;
}

// The sets for the path, the query, the fragment and the user info.
const PATH_SET = encodeSet('"#<>?`{}');
const QUERY_SET = encodeSet("\"#<>'");
const FRAGMENT_SET = encodeSet('"<>`');
const USERINFO_SET = encodeSet('"#<>?`{}/:;=@[\\]^|');
/** Forbidden host code points (besides controls, space and DEL); non-ASCII is refused as well. */
const FORBIDDEN_HOST = encodeSet("#%/:<>?@[\\]^|");

function isC0OrSpace(ch: string | undefined): boolean {
  return ch !== undefined && ch.charCodeAt(0) <= 0x20;
}

/** Drops leading and trailing C0 controls and spaces, and every tab and newline. */
function stripInput(input: string): string {
  let start = 0;
  let end = input.length;
  while (start < end && isC0OrSpace(input[start])) start++;
  while (end > start && isC0OrSpace(input[end - 1])) end--;
  return input.slice(start, end).replace(/[\t\n\r]/g, "");
}

function invalid(input: string): TypeError {
  return new TypeError(`Invalid URL: ${input}`);
}

function resolveDotSegments(path: string): string {
  const out: string[] = [];
  const segments = path.split("/").slice(1);
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    const s = segment.toLowerCase();
    if (s === ".." || s === ".%2e" || s === "%2e." || s === "%2e%2e") {
      out.pop();
      if (last) out.push("");
    } else if (s === "." || s === "%2e") {
      if (last) out.push("");
    } else {
      out.push(segment);
    }
  });
  return `/${out.join("/")}`;
}

export class MiniURL {
  protocol: string;
  username: string;
  password: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;

  constructor(input: string | MiniURL, base?: string) {
    if (base !== undefined) throw new TypeError("Relative URLs are not supported here.");
    const text = stripInput(String(input));
    const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(text);
    if (!scheme) throw invalid(text);
    this.protocol = `${scheme[1]!.toLowerCase()}:`;
    if (!(this.protocol in SPECIAL_PORTS)) throw invalid(text);
    // Special schemes read "\" as "/" and any number of slashes before the host.
    let rest = text.slice(scheme[0].length).replace(/\\/g, "/");
    rest = rest.replace(/^\/*/, "");
    let hash = "";
    const hashAt = rest.indexOf("#");
    if (hashAt >= 0) {
      hash = rest.slice(hashAt);
      rest = rest.slice(0, hashAt);
    }
    let search = "";
    const queryAt = rest.indexOf("?");
    if (queryAt >= 0) {
      search = rest.slice(queryAt);
      rest = rest.slice(0, queryAt);
    }
    const slash = rest.indexOf("/");
    let authority = slash >= 0 ? rest.slice(0, slash) : rest;
    const path = slash >= 0 ? rest.slice(slash) : "/";
    this.username = "";
    this.password = "";
    const at = authority.lastIndexOf("@");
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      authority = authority.slice(at + 1);
      const colon = userinfo.indexOf(":");
      this.username = percentEncode(colon >= 0 ? userinfo.slice(0, colon) : userinfo, USERINFO_SET);
      this.password = colon >= 0 ? percentEncode(userinfo.slice(colon + 1), USERINFO_SET) : "";
    }
    let host = authority;
    let port = "";
    const portAt = authority.startsWith("[") ? authority.indexOf("]") + 1 : authority.lastIndexOf(":");
    if (portAt > 0 && portAt < authority.length) {
      if (authority[portAt] !== ":" || !/^\d*$/.test(authority.slice(portAt + 1))) throw invalid(text);
      host = authority.slice(0, portAt);
      port = authority.slice(portAt + 1);
    }
    if (port !== "") {
      const n = Number(port);
      if (!Number.isInteger(n) || n > 65535) throw invalid(text);
      port = String(n);
      if (port === SPECIAL_PORTS[this.protocol]) port = "";
    }
    if (host === "") throw invalid(text);
    if (host.startsWith("[")) {
      if (!/^\[[0-9A-Fa-f:.]+\]$/.test(host)) throw invalid(text);
    } else {
      host = host.toLowerCase();
      if ([...host].some(FORBIDDEN_HOST)) throw invalid(text);
      // A host made of digits and dots is an IPv4 address: only the plain dotted form is accepted.
      if (/^[0-9.]+$/.test(host) && !/^(\d{1,3})(\.\d{1,3}){3}$/.test(host)) throw invalid(text);
      if (/^(\d{1,3})(\.\d{1,3}){3}$/.test(host) && host.split(".").some((p) => Number(p) > 255)) {
        throw invalid(text);
      }
    }
    this.hostname = host.toLowerCase();
    this.port = port;
    this.pathname = resolveDotSegments(percentEncode(path, PATH_SET));
    this.search = search === "?" ? "" : percentEncode(search, QUERY_SET);
    this.hash = hash === "#" ? "" : percentEncode(hash, FRAGMENT_SET);
  }

  get host(): string {
    return this.port ? `${this.hostname}:${this.port}` : this.hostname;
  }

  get origin(): string {
    return `${this.protocol}//${this.host}`;
  }

  get href(): string {
    const credentials = this.username || this.password;
    const userinfo = credentials ? `${this.username}${this.password ? `:${this.password}` : ""}@` : "";
    return `${this.protocol}//${userinfo}${this.host}${this.pathname}${this.search}${this.hash}`;
  }

  get searchParams(): MiniURLSearchParams {
    return new MiniURLSearchParams(this.search);
  }

  toString(): string {
    return this.href;
  }

  toJSON(): string {
    return this.href;
  }
}

/** application/x-www-form-urlencoded, as URLSearchParams serialises it. */
function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

export class MiniURLSearchParams {
  readonly #entries: [string, string][] = [];

  constructor(init?: string | Record<string, string> | [string, string][]) {
    if (typeof init === "string") {
      for (const part of init.replace(/^\?/, "").split("&")) {
        if (part === "") continue;
        const eq = part.indexOf("=");
        const key = eq >= 0 ? part.slice(0, eq) : part;
        const value = eq >= 0 ? part.slice(eq + 1) : "";
        this.#entries.push([formDecode(key), formDecode(value)]);
      }
    } else if (Array.isArray(init)) {
      for (const [k, v] of init) this.#entries.push([String(k), String(v)]);
    } else if (init) {
      for (const k of Object.keys(init)) this.#entries.push([k, String(init[k])]);
    }
  }

  append(name: string, value: string): void {
    this.#entries.push([String(name), String(value)]);
  }

  set(name: string, value: string): void {
    const key = String(name);
    const first = this.#entries.findIndex(([k]) => k === key);
    if (first < 0) {
      this.#entries.push([key, String(value)]);
      return;
    }
    this.#entries[first] = [key, String(value)];
    for (let i = this.#entries.length - 1; i > first; i--) {
      if (this.#entries[i]![0] === key) this.#entries.splice(i, 1);
    }
  }

  get(name: string): string | null {
    return this.#entries.find(([k]) => k === name)?.[1] ?? null;
  }

  has(name: string): boolean {
    return this.#entries.some(([k]) => k === name);
  }

  delete(name: string): void {
    for (let i = this.#entries.length - 1; i >= 0; i--) {
      if (this.#entries[i]![0] === name) this.#entries.splice(i, 1);
    }
  }

  forEach(callback: (value: string, key: string) => void): void {
    for (const [k, v] of this.#entries) callback(v, k);
  }

  toString(): string {
    return this.#entries.map(([k, v]) => `${formEncode(k)}=${formEncode(v)}`).join("&");
  }
}

/** Installs each missing global; a runtime that has its own keeps it. */
function installWebGlobals(target: Record<string, unknown> = globalThis as Record<string, unknown>): void {
  if (typeof target.URL !== "function") target.URL = MiniURL;
  if (typeof target.URLSearchParams !== "function") target.URLSearchParams = MiniURLSearchParams;
}

installWebGlobals();
