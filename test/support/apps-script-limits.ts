/**
 * Apps Script's limits, as the fakes in apps-script.ts enforce them. A fake kinder than the
 * platform proves nothing, so each limit here throws what Apps Script throws, at the documented
 * size or time (docs/google-sheets.md cites the pages):
 *
 * - PropertiesService: 9 KB per value, 500 KB per property store (Quotas for Google Services).
 * - UrlFetchApp: about 60 s per fetch; a fetch that takes longer throws; at most 50 MB of answer. Headers that Google's URL
 *   Fetch service sets itself (Content-Length, Host, ...) cannot be set by the script.
 * - One execution (a trigger, a menu item, a google.script.run call) runs at most 6 minutes.
 * - HtmlOutput.addMetaTag takes only a few names; meta tags written in the file are ignored.
 * - CacheService: keys up to 250 characters, values up to 100 KB, kept at most 6 hours, at most
 *   1,000 items (the ones nearest their expiry are dropped first).
 * - Google Sheets: at most 10,000,000 cells per spreadsheet (every sheet's whole grid counted); a
 *   range must lie within its sheet's grid. Writing takes time on the clock (WRITE_MS_PER_CELL,
 *   FLUSH_MS: Google documents no figure; these make a large write cost minutes, as it does).
 *
 * Time is a fake clock: a fetch "takes" the time its handler says, Utilities.sleep advances it, and
 * no test waits for real.
 */

export const PROPERTY_VALUE_LIMIT_BYTES = 9 * 1024;
const PROPERTY_STORE_LIMIT_BYTES = 500 * 1024;
export const URL_FETCH_TIMEOUT_MS = 60_000;
/** "URL Fetch response size: 50 MB / call" (Quotas for Google Services). */
export const URL_FETCH_RESPONSE_LIMIT_BYTES = 50 * 1024 * 1024;
const EXECUTION_LIMIT_MS = 6 * 60_000;
const CACHE_VALUE_LIMIT_BYTES = 100 * 1024;
const CACHE_MAX_EXPIRATION_S = 21_600;
/** "The cap for cached items is 1,000" (Class Cache reference). */
export const CACHE_MAX_ITEMS = 1_000;
/** "Up to 10 million cells" per spreadsheet (Google Drive Help, "Files you can store in Google Drive"). */
export const SHEETS_CELL_LIMIT = 10_000_000;
/** What Sheets answers a change that would pass it (its wording, as the Sheets API reports it). */
export const CELL_LIMIT_MESSAGE = `This action would increase the number of cells in the workbook above the limit of ${SHEETS_CELL_LIMIT} cells.`;
/** Time one written cell costs on the fake clock, and one flush (not documented by Google). */
export const WRITE_MS_PER_CELL = 0.02;
export const FLUSH_MS = 200;
/** Utilities.sleep refuses more than 5 minutes. */
export const SLEEP_LIMIT_MS = 300_000;

/**
 * The request headers the script cannot set, as Google's page on the URL Fetch service (the service
 * `UrlFetchApp` runs on) lists them, in its spelling: "For security reasons, the following headers
 * cannot be modified by the application" ... "App Engine sets these headers to accurate values, as
 * appropriate. For example, App Engine calculates the Content-Length header from the request data"
 * (cloud.google.com/appengine/docs/standard/services/urlfetch/outbound-requests, "Request
 * headers"). Written from that page, not from the transport under test: HTTP header names are
 * compared without regard to case.
 */
export const URL_FETCH_SETS_ITSELF = [
  "Content-Length",
  "Host",
  "Vary",
  "Via",
  "X-Appengine-Inbound-Appid",
  "X-Forwarded-For",
  "X-ProxyUser-IP",
] as const;

/** The only names HtmlOutput.addMetaTag accepts. */
const ALLOWED_META_TAGS = [
  "apple-mobile-web-app-capable",
  "google-site-verification",
  "mobile-web-app-capable",
  "viewport",
] as const;

const EXECUTION_TIMEOUT_MESSAGE = "Exceeded maximum execution time";

export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/**
 * The fake clock and the current execution. Apps Script ends an execution at 6 minutes whatever the
 * script does, so `spend` throws past the limit and marks the execution as timed out: the wrapper
 * around each global function then fails the call even if the script caught the error.
 */
export class ExecutionClock {
  now: number;
  private startedAt: number | null = null;
  private depth = 0;
  timedOut = false;
  /** Executions that ran into the limit, by the global function's name. */
  readonly timeouts: string[] = [];

  constructor(start = Date.UTC(2026, 0, 5, 9, 0, 0)) {
    this.now = start;
  }

  /** True while an execution runs (a nested call of a global function belongs to it). */
  get inExecution(): boolean {
    return this.depth > 0;
  }

  /** Milliseconds left in the current execution (the whole limit outside one). */
  remaining(): number {
    return this.startedAt === null ? EXECUTION_LIMIT_MS : this.startedAt + EXECUTION_LIMIT_MS - this.now;
  }

  /** Lets `ms` pass inside the current execution; throws at the 6-minute limit. */
  spend(ms: number): void {
    const left = this.remaining();
    if (ms > left) {
      this.now += Math.max(0, left);
      this.timedOut = true;
      throw new Error(EXECUTION_TIMEOUT_MESSAGE);
    }
    this.now += ms;
  }

  /** Runs one execution of a global function (nested calls belong to the outer one). */
  run<T>(name: string, work: () => T): T {
    if (this.depth > 0) return work();
    this.startedAt = this.now;
    this.timedOut = false;
    this.depth = 1;
    try {
      const value = work();
      if (this.timedOut) throw new Error(EXECUTION_TIMEOUT_MESSAGE);
      return value;
    } catch (error) {
      if (this.timedOut) {
        this.timeouts.push(name);
        throw new Error(EXECUTION_TIMEOUT_MESSAGE);
      }
      throw error;
    } finally {
      this.depth = 0;
      this.startedAt = null;
    }
  }
}

type Store = Map<string, string>;

function storeBytes(data: Store): number {
  let total = 0;
  for (const [key, value] of data) total += utf8Bytes(key) + utf8Bytes(value);
  return total;
}

/** Checks one write against the per-value and per-store limits before anything changes. */
export function checkPropertyWrite(data: Store, writes: Record<string, string>, deleteOthers = false): void {
  const next: Store = deleteOthers ? new Map() : new Map(data);
  for (const [key, value] of Object.entries(writes)) {
    if (utf8Bytes(value) > PROPERTY_VALUE_LIMIT_BYTES) throw new Error("Argument too large: value");
    next.set(key, value);
  }
  if (storeBytes(next) > PROPERTY_STORE_LIMIT_BYTES) {
    throw new Error(
      "You have exceeded the property storage quota. Please remove some properties and try again.",
    );
  }
}

/**
 * UrlFetchApp refuses a header the URL Fetch service sets itself, in any case. The message is the
 * one Apps Script gives ("Attribute provided with invalid value: Header:<name>"); Google documents
 * the refusal, not its wording, so the code under test must not depend on the text.
 */
export function checkRequestHeaders(headers: Record<string, unknown>): void {
  const refused = new Set(URL_FETCH_SETS_ITSELF.map((h) => h.toLowerCase()));
  for (const name of Object.keys(headers)) {
    if (refused.has(name.toLowerCase())) {
      throw new Error(`Attribute provided with invalid value: Header:${name}`);
    }
  }
}

export function checkMetaTag(name: string): void {
  if (!(ALLOWED_META_TAGS as readonly string[]).includes(String(name).toLowerCase())) {
    throw new Error(`Invalid argument: name (${name} is not a meta tag HtmlOutput accepts)`);
  }
}

/** CacheService.getUserCache(), with its limits and expiry on the fake clock. */
export function fakeCache(clock: ExecutionClock) {
  const entries = new Map<string, { value: string; expires: number }>();
  const check = (key: string, value: string) => {
    if (key.length > 250) throw new Error("Argument too large: key");
    if (utf8Bytes(value) > CACHE_VALUE_LIMIT_BYTES) throw new Error("Argument too large: value");
  };
  const store = (key: string, value: string, expirationInSeconds: number) => {
    const seconds = Math.min(Math.max(1, expirationInSeconds), CACHE_MAX_EXPIRATION_S);
    entries.set(key, { value: String(value), expires: clock.now + seconds * 1000 });
  };
  /** Past the cap, the items nearest their expiry go first. */
  const trim = () => {
    if (entries.size <= CACHE_MAX_ITEMS) return;
    const byExpiry = [...entries].sort((a, b) => a[1].expires - b[1].expires);
    for (const [key] of byExpiry.slice(0, entries.size - CACHE_MAX_ITEMS)) entries.delete(key);
  };
  const cache = {
    entries,
    get(key: string): string | null {
      const entry = entries.get(key);
      if (!entry || entry.expires <= clock.now) return null;
      return entry.value;
    },
    getAll(keys: string[]): Record<string, string> {
      const found: Record<string, string> = {};
      for (const key of keys) {
        const value = cache.get(key);
        if (value !== null) found[key] = value;
      }
      return found;
    },
    put(key: string, value: string, expirationInSeconds = 600): void {
      check(key, String(value));
      store(key, String(value), expirationInSeconds);
      trim();
    },
    putAll(values: Record<string, string>, expirationInSeconds = 600): void {
      for (const [key, value] of Object.entries(values)) check(key, String(value));
      for (const [key, value] of Object.entries(values)) store(key, String(value), expirationInSeconds);
      trim();
    },
    remove(key: string): void {
      entries.delete(key);
    },
    removeAll(keys: string[]): void {
      for (const key of keys) entries.delete(key);
    },
  };
  return cache;
}

/*
 * Daily quotas and the simultaneous-execution limit (developers.google.com/apps-script/guides/services/quotas):
 * - "Properties read/write": 50,000 a day on a consumer account, 500,000 on Google Workspace;
 * - "URL Fetch calls": 20,000 a day consumer, 100,000 Workspace;
 * - "Simultaneous executions": 30 per user.
 * Quotas are per user and reset 24 hours after the first request. Past a quota the service throws
 * "Service invoked too many times for one day: <service>." (the quotas page's own wording).
 */
export type AccountKind = "consumer" | "workspace";

export const DAILY_QUOTAS = {
  properties: { consumer: 50_000, workspace: 500_000 },
  urlfetch: { consumer: 20_000, workspace: 100_000 },
} as const;

export const SIMULTANEOUS_EXECUTIONS = 30;

const DAY_MS = 24 * 60 * 60_000;

/** Counts each quota's use per day (from the first request, on the fake clock) and throws past it. */
export class DailyQuotas {
  private windowStart: number | null = null;
  readonly used = { properties: 0, urlfetch: 0 };
  /** The most any one day has used, per quota. */
  readonly peak = { properties: 0, urlfetch: 0 };

  constructor(
    private readonly clock: ExecutionClock,
    readonly account: AccountKind = "consumer",
  ) {}

  count(kind: keyof typeof DAILY_QUOTAS): void {
    const now = this.clock.now;
    if (this.windowStart === null || now - this.windowStart >= DAY_MS) {
      this.windowStart = now;
      this.used.properties = 0;
      this.used.urlfetch = 0;
    }
    if (this.used[kind] >= DAILY_QUOTAS[kind][this.account]) {
      throw new Error(`Service invoked too many times for one day: ${kind}.`);
    }
    this.used[kind]++;
    this.peak[kind] = Math.max(this.peak[kind], this.used[kind]);
  }
}

/** Executions running at once for the user; a 31st is refused. */
export class SimultaneousExecutions {
  running = 0;
  max = 0;

  enter(): void {
    if (this.running >= SIMULTANEOUS_EXECUTIONS) {
      throw new Error("There are too many scripts running.");
    }
    this.running++;
    this.max = Math.max(this.max, this.running);
  }

  leave(): void {
    this.running--;
  }
}
