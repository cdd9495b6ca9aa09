/**
 * The shapes of the service (platform-api.md, Resources), as zod schemas.
 *
 * Two readings of the same shapes:
 * - the strict schemas (`ReportSchema`, ...) follow the spec to the letter: an unknown enum value is
 *   an error. The sandbox validates its seed data with them.
 * - the tolerant schemas (`TolerantReportSchema`, ...) are what the client parses responses with.
 *   A newer service may add enum values; a client that rejects a whole report for that would hide
 *   it from the user. So an unknown sync status reads as `UNKNOWN`, an unknown host or source as
 *   null, an unknown role action is dropped. A wrong type or a missing required field still fails.
 *
 * Unknown extra fields are accepted and ignored in both readings (the real service adds fields such
 * as `resultChecksum` over time).
 *
 * Every schema is built when it is first used (lazy-schema.ts): the pane's first list reads only the
 * tolerant report and what settings need, and building the rest when this module loaded cost it
 * about 20 ms of main-thread CPU. The exported schemas are stand-ins that build on first use and
 * behave as the schema they stand for.
 */
import { isJsonObject } from "./json-object.js";
import { built, lazily } from "./lazy-schema.js";
import * as z from "./zod.js";

const REPORT_TYPES = ["FOLDER", "WORKBOOK", "REPORT"] as const;
const REPORT_SOURCES = ["GOOGLE_SHEETS", "EXCEL", "PLAYGROUND", "D3"] as const;
const PLACEMENT_HOSTS = ["GOOGLE_SHEETS", "EXCEL"] as const;
const SYNC_STATUSES = ["UP_TO_DATE", "CHANGED", "UNKNOWN"] as const;
const MEASURES_AXES = ["columns", "rows"] as const;
const MEASURES_POSITIONS = ["before", "after"] as const;
const ROLE_ACTIONS = [
  "All",
  "DeploymentsManage",
  "DeploymentCreate",
  "DeploymentRead",
  "DeploymentUpdate",
  "DeploymentDelete",
  "SecretsManage",
  "DownloadData",
  "PlaygroundRead",
  "SchemaRead",
  "SchemaUpdate",
  "SchemaUpdateDevBranches",
  "APMRead",
  "PreAggregationBuild",
  "AlertsCreate",
  "AlertsRead",
  "AlertsUpdate",
  "AlertsDelete",
  "AuditLogManage",
  "BillingRead",
  "SqlRunnerRead",
  "DataAssetsRead",
  "DataAssetsManage",
  "CubeNetworkConnect",
  "ReportRead",
  "ReportEdit",
  "ReportManage",
  "WorkbookManage",
  "WorkbookRead",
  "WorkbookEdit",
  "ChatThreadRead",
  "AgentManage",
  "AgentRead",
  "AgentSpaceManage",
  "AgentAdmin",
  "DeploymentAgentRead",
  "OAuthIntegrationsManage",
  "OAuthIntegrationsIssueTokens",
  "McpToolsManage",
  "AIBIDevelop",
  "AIBIExplore",
  "AIBIView",
  "ChartPalettesManage",
  "DashboardThemesManage",
  "AIBIDeveloper",
  "AIBIUser",
  "AIBIViewer",
  "EmbedDeploymentRead",
  "EmbedDashboardRead",
  "FolderRead",
  "FolderEdit",
  "FolderManage",
] as const;

export type PlacementHost = (typeof PLACEMENT_HOSTS)[number];
export type PlacementSyncStatus = (typeof SYNC_STATUSES)[number];
type RoleAction = (typeof ROLE_ACTIONS)[number];

/** "string, date or date-time": an ISO date (2024-05-01) or an ISO date-time, with or without offset. */
const dateOrDateTime = built(() => z.union([z.iso.date(), z.iso.datetime({ offset: true, local: true })]));

type Mode = "strict" | "tolerant";

/** An enum field that, when tolerant, reads an unknown value as `fallback`. */
function enumField<const T extends readonly [string, ...string[]], F extends T[number] | null>(
  values: T,
  mode: Mode,
  fallback: F,
) {
  const strict = z.enum(values);
  if (mode === "strict") return strict;
  // Only a string that is not one of the values is "unknown"; a number or an object is still a
  // wrong type and fails.
  return z.union([
    strict,
    z.pipe(
      z.string(),
      z.transform(() => fallback),
    ),
  ]);
}

/**
 * `resultChecksum` (platform-api.md, hand edits): the fingerprint the add-in computed over the cells
 * it wrote, opaque to the service. `to` on a chunk is deprecated and ignored.
 */
const resultChecksum = built(() =>
  z.object({
    v: z.int().check(z.gte(1)),
    chunks: z
      .array(
        z.object({ from: z.int().check(z.gte(0)), hash: z.string().check(z.minLength(1), z.maxLength(64)) }),
      )
      .check(z.maxLength(2_000)),
    payload: z.optional(z.string().check(z.minLength(1), z.maxLength(128))),
  }),
);
export const ResultChecksumSchema = lazily(resultChecksum);
export type ResultChecksum = z.infer<typeof ResultChecksumSchema>;

/** An optional field outside the spec's table: its value when of the type, else null (in both readings). */
function optionalLoose<T>(schema: z.ZodMiniType<T>) {
  return z.optional(
    z.pipe(
      z.unknown(),
      z.transform((v: unknown): T | null => {
        const parsed = schema.safeParse(v);
        return parsed.success ? parsed.data : null;
      }),
    ),
  );
}

function buildSchemas(mode: Mode) {
  const ResourceOwner = z.object({
    id: z.int(),
    email: z.string(),
    firstName: z.optional(z.nullable(z.string())),
    picture: z.optional(z.nullable(z.string())),
  });

  const WorkspaceFolderPathEntry = z.object({ id: z.int(), name: z.string() });

  const PivotItems = z.object({
    columns: z.array(z.string()),
    measures: z.array(z.string()),
    rows: z.array(z.string()),
    filters: z.array(z.string()),
    measuresAxis: z.optional(z.nullable(enumField(MEASURES_AXES, mode, null))),
    measuresPosition: z.optional(z.nullable(enumField(MEASURES_POSITIONS, mode, null))),
    // Display options the platform's editor sets (platform-api.md, "A report's grid"); the spec's
    // table does not list them, so a value of another type reads as null rather than refusing the
    // report.
    displayScale: optionalLoose(z.union([z.number(), z.string()])),
    showColumnTotals: optionalLoose(z.boolean()),
    showRowTotals: optionalLoose(z.boolean()),
    showAppliedFilters: optionalLoose(z.boolean()),
  });

  const actions =
    mode === "strict"
      ? z.array(z.enum(ROLE_ACTIONS))
      : z.pipe(
          z.array(z.string()),
          z.transform((list: string[]) =>
            list.filter((a): a is RoleAction => (ROLE_ACTIONS as readonly string[]).includes(a)),
          ),
        );

  const RoleWithAccess = z.object({ id: z.int(), name: z.string(), actions });

  const ReportPlacement = z.object({
    workbookId: z.string(),
    resultLocation: z.string(),
    id: z.optional(z.nullable(z.string())),
    anchorCell: z.optional(z.nullable(z.string())),
    endResultCell: z.optional(z.nullable(z.string())),
    host: z.optional(z.nullable(enumField(PLACEMENT_HOSTS, mode, null))),
    placedAt: z.optional(z.nullable(z.string())),
    placedByUserId: z.optional(z.nullable(z.int())),
    queryChecksum: z.optional(z.nullable(z.string())),
    refreshedAt: z.optional(z.nullable(z.string())),
    refreshedByUserId: z.optional(z.nullable(z.int())),
    sheetId: z.optional(z.nullable(z.string())),
    sheetName: z.optional(z.nullable(z.string())),
    syncStatus: z.optional(z.nullable(enumField(SYNC_STATUSES, mode, "UNKNOWN"))),
    workbookName: z.optional(z.nullable(z.string())),
    // Read tolerantly: a checksum the add-in cannot read means "cannot tell" about hand edits, and
    // must not hide the placement.
    resultChecksum: z.optional(
      z.nullable(
        mode === "strict"
          ? resultChecksum()
          : z.union([
              resultChecksum(),
              z.pipe(
                z.unknown(),
                z.transform((): ResultChecksum | null => null),
              ),
            ]),
      ),
    ),
  });

  const Report = z.object({
    id: z.int(),
    publicId: z.string().check(z.regex(/^[0-9A-Za-z]{12}$/, "publicId must be exactly 12 letters or digits")),
    deploymentId: z.int(),
    userId: z.int(),
    user: ResourceOwner,
    name: z.string(),
    refreshedByUser: ResourceOwner,
    createdAt: dateOrDateTime(),
    updatedAt: dateOrDateTime(),
    // The report type is required and drives nothing in the add-in, but a value we cannot name
    // is still refused in both readings: a tolerant reading would have to invent one.
    type: z.enum(REPORT_TYPES),
    canEdit: z.optional(z.nullable(z.boolean())),
    canManage: z.optional(z.nullable(z.boolean())),
    createdBy: z.optional(z.int()),
    currentQueryChecksum: z.optional(z.nullable(z.string())),
    description: z.optional(z.nullable(z.string())),
    endResultCell: z.optional(z.nullable(z.string())),
    externalWorkbookId: z.optional(z.nullable(z.string())),
    externalWorkbookPlacements: z.optional(z.nullable(z.array(ReportPlacement))),
    folderId: z.optional(z.nullable(z.int())),
    folderPath: z.optional(z.array(WorkspaceFolderPathEntry)),
    jsonQuery: z.optional(z.nullable(z.string())),
    meta: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
    pivotItems: z.optional(z.nullable(PivotItems)),
    refreshedBy: z.optional(z.nullable(z.int())),
    resultLocation: z.optional(z.nullable(z.string())),
    rolesWithAccess: z.optional(z.nullable(z.array(RoleWithAccess))),
    source: z.optional(z.nullable(enumField(REPORT_SOURCES, mode, null))),
    sqlQuery: z.optional(z.nullable(z.string())),
    title: z.optional(z.nullable(z.string())),
    version: z.optional(z.nullable(z.int())),
    workbookId: z.optional(z.nullable(z.int())),
  });

  return { ResourceOwner, WorkspaceFolderPathEntry, PivotItems, RoleWithAccess, ReportPlacement, Report };
}

const strict = built(() => buildSchemas("strict"));
const tolerant = built(() => buildSchemas("tolerant"));

export const ReportPlacementSchema = lazily(() => strict().ReportPlacement);
export const ReportSchema = lazily(() => strict().Report);

/** What the client parses responses with: unknown enum values tolerated (see the top of this file). */
export const TolerantReportSchema = lazily(() => tolerant().Report);

// ---------------------------------------------------------------------------------------------
// The tolerant reading of a report, with its placements checked by hand.
//
// A workbook may hold 20,000 placements, and zod (jitless: the pages forbid eval, zod.ts) reads
// each one's fifteen fields through its general machinery, about 7 µs a placement: 140 ms of a
// long list's first paint. A placement as the service sends it is a flat object of strings,
// integers and nulls, so a placement of that plain shape is read here by hand, to exactly what
// TolerantReportSchema makes of it (same fields, in the same order; unknown fields dropped; an
// unknown host as null, an unknown sync status as UNKNOWN, an unreadable checksum as null). Any
// other value (a wrong type, a field present but undefined) sends the whole report to
// TolerantReportSchema, so what fails and the issues it names are zod's, unchanged
// (test/core/schema.fast-read.test.ts runs both readings over generated reports).

type PlacementKey = keyof ReportPlacement;
const REQUIRED_STRINGS: readonly PlacementKey[] = ["workbookId", "resultLocation"];
/** Every field of a placement in the schema's order, with how it is read when present. */
/**
 * Every field of a placement in ReportPlacement's order (buildSchemas), with how it is read when
 * present. Written out rather than read off the schema, which would build it; the equivalence test
 * (test/core/schema.fast-read.test.ts) compares fields and their order with zod's reading.
 */
const PLACEMENT_FIELDS: readonly (readonly [
  PlacementKey,
  "string" | "int" | "host" | "sync" | "checksum",
])[] = [
  ["workbookId", "string"],
  ["resultLocation", "string"],
  ["id", "string"],
  ["anchorCell", "string"],
  ["endResultCell", "string"],
  ["host", "host"],
  ["placedAt", "string"],
  ["placedByUserId", "int"],
  ["queryChecksum", "string"],
  ["refreshedAt", "string"],
  ["refreshedByUserId", "int"],
  ["sheetId", "string"],
  ["sheetName", "string"],
  ["syncStatus", "sync"],
  ["workbookName", "string"],
  ["resultChecksum", "checksum"],
];

/**
 * A placement's checksum read as the tolerant reading reads it (the checksum when it is one, else
 * null), for a JSON object; NOT_PLAIN for anything else, or a field present but undefined (zod's).
 */
function plainChecksum(v: unknown): Read<ResultChecksum | null> {
  if (!isJsonObject(v)) return typeof v === "object" && v !== null && !Array.isArray(v) ? NOT_PLAIN : null;
  const { chunks, payload } = v;
  if (!Number.isSafeInteger(v.v) || (v.v as number) < 1) return null;
  if (!Array.isArray(chunks) || chunks.length > 2_000) return null;
  if ("payload" in v && payload === undefined) return NOT_PLAIN;
  if (payload !== undefined && (typeof payload !== "string" || payload.length < 1 || payload.length > 128)) {
    return null;
  }
  const read: ResultChecksum["chunks"] = [];
  for (const chunk of chunks) {
    if (!isJsonObject(chunk)) {
      if (typeof chunk === "object" && chunk !== null && !Array.isArray(chunk)) return NOT_PLAIN;
      return null;
    }
    const { from, hash } = chunk;
    if (!Number.isSafeInteger(from) || (from as number) < 0) return null;
    if (typeof hash !== "string" || hash.length < 1 || hash.length > 64) return null;
    read.push({ from: from as number, hash });
  }
  return payload === undefined
    ? { v: v.v as number, chunks: read }
    : { v: v.v as number, chunks: read, payload };
}

/** The placement read by hand as TolerantReportSchema reads it, or undefined when it is not of the plain shape. */
function plainPlacement(value: unknown): ReportPlacement | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const input = value as Record<string, unknown>;
  for (const key of REQUIRED_STRINGS) if (typeof input[key] !== "string") return undefined;
  const out: Record<string, unknown> = {};
  for (const [key, kind] of PLACEMENT_FIELDS) {
    const v = input[key];
    if (v === undefined) {
      // Absent: left out, as zod leaves it. Present but undefined: zod's to read.
      if (key in input) return undefined;
      continue;
    }
    if (v === null) {
      out[key] = null;
      continue;
    }
    switch (kind) {
      case "string":
        if (typeof v !== "string") return undefined;
        out[key] = v;
        break;
      case "int":
        if (!Number.isSafeInteger(v)) return undefined;
        out[key] = v;
        break;
      case "host":
        if (typeof v !== "string") return undefined;
        out[key] = (PLACEMENT_HOSTS as readonly string[]).includes(v) ? v : null;
        break;
      case "sync":
        if (typeof v !== "string") return undefined;
        out[key] = (SYNC_STATUSES as readonly string[]).includes(v) ? v : "UNKNOWN";
        break;
      case "checksum": {
        const plain = plainChecksum(v);
        if (plain !== NOT_PLAIN) out[key] = plain;
        else {
          const read = resultChecksum().safeParse(v);
          out[key] = read.success ? read.data : null;
        }
        break;
      }
    }
  }
  return out as ReportPlacement;
}

// ---------------------------------------------------------------------------------------------
// The tolerant reading of the report's own fields, by hand too.
//
// The first list reads every report of the workbook, and zod's first parse of a report costs the
// cold pane more than the parse itself: building the tolerant schemas (some hundred objects) and
// running zod's parsing code for the first time (V8 compiles each function on its first call, on
// the main thread). A report of the plain shape the service sends (JSON: plain objects, the
// spec's types) is read here by hand to exactly what TolerantReportSchema makes of it: the same
// fields in the schema's order, unknown fields dropped, tolerated values read as the schema reads
// them. Anything else (a wrong type, a field present but undefined, an object of another kind) is
// left to zod, whose answer and issues are then the answer (test/core/schema.fast-read.test.ts).

/** A value the hand reading leaves to zod. */
const NOT_PLAIN: unique symbol = Symbol("not plain");
type Read<T> = T | typeof NOT_PLAIN;

const readString = (v: unknown): Read<string> => (typeof v === "string" ? v : NOT_PLAIN);
const readInt = (v: unknown): Read<number> => (Number.isSafeInteger(v) ? (v as number) : NOT_PLAIN);
const readBoolean = (v: unknown): Read<boolean> => (typeof v === "boolean" ? v : NOT_PLAIN);
const nullable =
  <T>(read: (v: unknown) => Read<T>) =>
  (v: unknown): Read<T | null> =>
    v === null ? null : read(v);

function readStrings(v: unknown): Read<string[]> {
  if (!Array.isArray(v)) return NOT_PLAIN;
  for (const item of v) if (typeof item !== "string") return NOT_PLAIN;
  return [...v];
}

/** An enum field read tolerantly: a value not among `values` reads as `fallback`; not a string, zod's. */
const tolerantEnum =
  <F>(values: readonly string[], fallback: F) =>
  (v: unknown): Read<string | F> =>
    typeof v !== "string" ? NOT_PLAIN : values.includes(v) ? v : fallback;

/** "string, date or date-time", with zod's own patterns for `z.iso.date()` and `z.iso.datetime()`. */
const datePatterns = built(() => [z.regexes.date, z.regexes.datetime({ offset: true, local: true })]);
function readDate(v: unknown): Read<string> {
  if (typeof v !== "string") return NOT_PLAIN;
  return datePatterns().some((pattern) => pattern.test(v)) ? v : NOT_PLAIN;
}

const PUBLIC_ID = /^[0-9A-Za-z]{12}$/;

/** An object read field by field, in `fields`' order; an absent optional field left out. */
function readObject(
  v: unknown,
  fields: readonly (readonly [string, (v: unknown) => Read<unknown>, "required" | "optional"])[],
): Read<Record<string, unknown>> {
  if (!isJsonObject(v)) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const [key, read, presence] of fields) {
    const value = v[key];
    if (value === undefined) {
      // Absent and optional: left out, as zod leaves it. Required, or present but undefined: zod's.
      if (presence === "required" || key in v) return NOT_PLAIN;
      continue;
    }
    const r = read(value);
    if (r === NOT_PLAIN) return NOT_PLAIN;
    out[key] = r;
  }
  return out;
}

const readOwner = (v: unknown) =>
  readObject(v, [
    ["id", readInt, "required"],
    ["email", readString, "required"],
    ["firstName", nullable(readString), "optional"],
    ["picture", nullable(readString), "optional"],
  ]);

function readList<T>(read: (v: unknown) => Read<T>) {
  return (v: unknown): Read<T[]> => {
    if (!Array.isArray(v)) return NOT_PLAIN;
    const out: T[] = [];
    for (const item of v) {
      const r = read(item);
      if (r === NOT_PLAIN) return NOT_PLAIN;
      out.push(r);
    }
    return out;
  };
}

/** `optionalLoose`: the value when of the type, else null. */
const loose =
  (is: (v: unknown) => boolean) =>
  (v: unknown): unknown =>
    is(v) ? v : null;

const readPivotItems = (v: unknown) =>
  readObject(v, [
    ["columns", readStrings, "required"],
    ["measures", readStrings, "required"],
    ["rows", readStrings, "required"],
    ["filters", readStrings, "required"],
    ["measuresAxis", nullable(tolerantEnum(MEASURES_AXES, null)), "optional"],
    ["measuresPosition", nullable(tolerantEnum(MEASURES_POSITIONS, null)), "optional"],
    [
      "displayScale",
      loose((x) => (typeof x === "number" && Number.isFinite(x)) || typeof x === "string"),
      "optional",
    ],
    ["showColumnTotals", loose((x) => typeof x === "boolean"), "optional"],
    ["showRowTotals", loose((x) => typeof x === "boolean"), "optional"],
    ["showAppliedFilters", loose((x) => typeof x === "boolean"), "optional"],
  ]);

const readRole = (v: unknown) =>
  readObject(v, [
    ["id", readInt, "required"],
    ["name", readString, "required"],
    [
      "actions",
      (x: unknown): Read<string[]> => {
        const all = readStrings(x);
        return all === NOT_PLAIN ? all : all.filter((a) => (ROLE_ACTIONS as readonly string[]).includes(a));
      },
      "required",
    ],
  ]);

/** `z.record(z.string(), z.unknown())` of a JSON object: its own keys copied, in order. */
function readMeta(v: unknown): Read<Record<string, unknown>> {
  if (!isJsonObject(v) || Object.getOwnPropertySymbols(v).length > 0) return NOT_PLAIN;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(v)) {
    if (key === "__proto__") return NOT_PLAIN;
    out[key] = v[key];
  }
  return out;
}

/** Every field of a report in TolerantReportSchema's order, how it is read, and whether it is required. */
const REPORT_FIELDS: readonly (readonly [string, (v: unknown) => Read<unknown>, "required" | "optional"])[] =
  [
    ["id", readInt, "required"],
    ["publicId", (v) => (typeof v === "string" && PUBLIC_ID.test(v) ? v : NOT_PLAIN), "required"],
    ["deploymentId", readInt, "required"],
    ["userId", readInt, "required"],
    ["user", readOwner, "required"],
    ["name", readString, "required"],
    ["refreshedByUser", readOwner, "required"],
    ["createdAt", readDate, "required"],
    ["updatedAt", readDate, "required"],
    [
      "type",
      (v) => (typeof v === "string" && (REPORT_TYPES as readonly string[]).includes(v) ? v : NOT_PLAIN),
      "required",
    ],
    ["canEdit", nullable(readBoolean), "optional"],
    ["canManage", nullable(readBoolean), "optional"],
    ["createdBy", readInt, "optional"],
    ["currentQueryChecksum", nullable(readString), "optional"],
    ["description", nullable(readString), "optional"],
    ["endResultCell", nullable(readString), "optional"],
    ["externalWorkbookId", nullable(readString), "optional"],
    // The placements are read apart (plainPlacement) and put in their place.
    ["externalWorkbookPlacements", (v) => v, "optional"],
    ["folderId", nullable(readInt), "optional"],
    [
      "folderPath",
      readList((v) =>
        readObject(v, [
          ["id", readInt, "required"],
          ["name", readString, "required"],
        ]),
      ),
      "optional",
    ],
    ["jsonQuery", nullable(readString), "optional"],
    ["meta", nullable(readMeta), "optional"],
    ["pivotItems", nullable(readPivotItems), "optional"],
    ["refreshedBy", nullable(readInt), "optional"],
    ["resultLocation", nullable(readString), "optional"],
    ["rolesWithAccess", nullable(readList(readRole)), "optional"],
    ["source", nullable(tolerantEnum(REPORT_SOURCES, null)), "optional"],
    ["sqlQuery", nullable(readString), "optional"],
    ["title", nullable(readString), "optional"],
    ["version", nullable(readInt), "optional"],
    ["workbookId", nullable(readInt), "optional"],
  ];

/**
 * Reads a report as `TolerantReportSchema.safeParse` does, with the same result (data, or the same
 * issues), without zod for a report of the plain shape the service sends, and faster for one with
 * many placements.
 */
export function safeParseTolerantReport(value: unknown): ReturnType<typeof TolerantReportSchema.safeParse> {
  const zod = () => tolerant().Report.safeParse(value);
  if (!isJsonObject(value)) return zod();
  const list = value.externalWorkbookPlacements;
  let placements: ReportPlacement[] | null | undefined = list as null | undefined;
  if (Array.isArray(list)) {
    placements = [];
    for (const item of list) {
      const read = plainPlacement(item);
      if (!read) return zod();
      placements.push(read);
    }
  } else if (list !== null && list !== undefined) {
    return zod();
  }
  const rest = readObject(value, REPORT_FIELDS);
  if (rest === NOT_PLAIN) return zod();
  if ("externalWorkbookPlacements" in rest) rest.externalWorkbookPlacements = placements;
  return { success: true, data: rest as Report } as ReturnType<typeof TolerantReportSchema.safeParse>;
}

export type ResourceOwner = z.infer<ReturnType<typeof strict>["ResourceOwner"]>;
export type ReportPlacement = z.infer<typeof ReportPlacementSchema>;
export type Report = z.infer<typeof ReportSchema>;

/** The disconnect input (platform-api.md): every field optional, each a string or null. */
const disconnectInput = built(() =>
  z.object({
    placementId: z.optional(z.nullable(z.string())),
    externalWorkbookId: z.optional(z.nullable(z.string())),
    sheetName: z.optional(z.nullable(z.string())),
    anchorCell: z.optional(z.nullable(z.string())),
    resultLocation: z.optional(z.nullable(z.string())),
    sheetId: z.optional(z.nullable(z.string())),
  }),
);
export const DisconnectInputSchema = lazily(disconnectInput);
export type DisconnectInput = z.infer<typeof DisconnectInputSchema>;

/**
 * Recording a refresh (`PUT .../refresh`, platform-api.md "Recording a refresh"): the placement
 * addressed as for a disconnect, the checksum of the cells written, and the result's new last cell
 * (recorded with the refresh: a decision, docs/decisions.md).
 */
export const RefreshInputSchema = lazily(() =>
  z.object({
    ...disconnectInput().shape,
    resultChecksum: z.optional(z.nullable(resultChecksum())),
    endResultCell: z.optional(z.nullable(z.string())),
  }),
);
export type RefreshInput = z.infer<typeof RefreshInputSchema>;

/**
 * Placing a report, or correcting where it is (`PUT .../connect-workbook`, platform-api.md "Placing a
 * report"): `externalWorkbookId` and `resultLocation` required; `placementId` to update one
 * placement; `addressOnly` to change only its address and keep its checksum.
 */
export const ConnectWorkbookInputSchema = lazily(() =>
  z.object({
    externalWorkbookId: z.string().check(z.minLength(1)),
    resultLocation: z.string().check(z.minLength(1)),
    placementId: z.optional(z.nullable(z.string())),
    sheetId: z.optional(z.nullable(z.string())),
    sheetName: z.optional(z.nullable(z.string())),
    anchorCell: z.optional(z.nullable(z.string())),
    endResultCell: z.optional(z.nullable(z.string())),
    workbookName: z.optional(z.nullable(z.string())),
    host: z.optional(z.nullable(z.enum(PLACEMENT_HOSTS))),
    resultChecksum: z.optional(z.nullable(resultChecksum())),
    addressOnly: z.optional(z.boolean()),
  }),
);
export type ConnectWorkbookInput = z.infer<typeof ConnectWorkbookInputSchema>;

/** A value of a user attribute (platform-api.md): string, number, boolean, list of strings or numbers, or null. */
const userAttribute = built(() =>
  z.object({
    name: z.string().check(z.minLength(1)),
    value: z.union([
      z.string(),
      z.number(),
      z.boolean(),
      z.array(z.union([z.string(), z.number()])),
      z.null(),
    ]),
  }),
);
export const UserAttributeSchema = lazily(userAttribute);
export type UserAttribute = z.infer<typeof UserAttributeSchema>;

const sessionSettings = built(() =>
  z.object({
    externalId: z.optional(z.string()),
    internalId: z.optional(z.string()),
    email: z.optional(z.string()),
    userAttributes: z.optional(z.array(userAttribute())),
    groups: z.optional(z.array(z.string())),
    roles: z.optional(z.array(z.string())),
    securityContext: z.optional(z.record(z.string(), z.unknown())),
  }),
);
export const SessionSettingsSchema = lazily(sessionSettings);
export type SessionSettings = z.infer<typeof SessionSettingsSchema>;

export const MESSAGE_ID_PATTERN = /^\d{13,}-message$/;

/** The chat request (platform-api.md, Agent chat). */
export const ChatRequestSchema = lazily(() =>
  z.object({
    input: z.optional(z.string()),
    chatId: z.optional(z.string()),
    messageId: z.optional(
      z
        .string()
        .check(z.regex(MESSAGE_ID_PATTERN, "messageId must be a millisecond timestamp then -message")),
    ),
    sessionSettings: sessionSettings(),
  }),
);
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/**
 * One line of the chat stream. Only the fields clients use are typed; every other field is kept
 * (control lines such as `__usage__` carry their own).
 */
export const ChatMessageSchema = lazily(() =>
  z.looseObject({
    id: z.optional(z.string()),
    role: z.optional(z.string()),
    content: z.optional(z.nullable(z.string())),
    graphPath: z.optional(z.nullable(z.array(z.string()))),
    state: z.optional(z.nullable(z.looseObject({ chatId: z.optional(z.string()) }))),
    isDelta: z.optional(z.boolean()),
    isInProcess: z.optional(z.boolean()),
    sort: z.optional(z.number()),
    type: z.optional(z.string()),
    error: z.optional(z.unknown()),
  }),
);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const DeploymentSchema = lazily(() =>
  z.looseObject({
    id: z.int(),
    name: z.string(),
    /** Where the deployment's data API lives (platform-api.md, "The data API"); read from the deployment itself. */
    deploymentUrl: z.optional(z.nullable(z.string())),
  }),
);
export type Deployment = z.infer<typeof DeploymentSchema>;
