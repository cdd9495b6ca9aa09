/// <reference types="google-apps-script" />
/**
 * The Apps Script side of the Google Sheets add-on, built to `dist/sheets/Code.js`.
 *
 * Every named export becomes a top-level function of the built script (the build generates one
 * global stub per export): the simple triggers `onOpen` and `onInstall`, the menu items, and the
 * functions the sidebar calls through `google.script.run`. Apps Script waits for none of them to
 * settle, so each one is synchronous: the core's synchronous client over `UrlFetchApp`.
 *
 * The sidebar's functions answer with an `Envelope` ({ok, value} or {ok: false, error}), so a
 * PlatformError reaches the pane with its kind and message intact (see envelope.ts).
 *
 * The API key and the other secrets stay here, in the user's properties; the sidebar only learns
 * whether each one is set.
 */
import "./web-globals.js";
import {
  AskArgumentSchema,
  ChatIdArgumentSchema,
  ConnectArgumentsSchema,
  checkArgument,
  DisconnectArgumentsSchema,
  RangeTargetArgumentSchema,
  ScimPageArgumentSchema,
} from "../../../core/arguments.js";
import { createSyncAgentChat } from "../../../core/chat-client.js";
import { type AgentAnswer, newMessageId, type RandomBytes } from "../../../core/chat-request.js";
import { createSyncPlatformClient, type SyncPlatformClient } from "../../../core/client.js";
import { createSyncDataClient } from "../../../core/data-client.js";
import { toDirectoryUserPage } from "../../../core/directory.js";
import { disconnectOutcome, runDisconnectSync } from "../../../core/disconnect-flow.js";
import { chatUrlBelongsToTenant } from "../../../core/domains.js";
import { PlatformError } from "../../../core/errors.js";
import { tenantOrigin } from "../../../core/http.js";
import type { PlacedReport } from "../../../core/placement-view.js";
import type { CellRead } from "../../../core/refresh-flow.js";
import type { ConnectWorkbookInput, Deployment, DisconnectInput, Report } from "../../../core/schema.js";
import {
  agentChatSettings,
  chatUrlAllowed,
  directoryAccess,
  managementAccess,
  mergeSettings,
  type PublicSettings,
  pickedDeployment,
  type SettingsPatch,
  type StoredSettings,
  toPublicSettings,
} from "../../../core/settings.js";
import {
  type RemovedPlacement,
  RemovedPlacementSchema,
  removedPlacement,
  runUndoDisconnectSync,
} from "../../../core/undo-disconnect.js";
import type { ActiveContext, AskInput, RangeTarget, ScimUserPage, WorkbookSnapshot } from "../../host.js";
import { askWithinLimits, MESSAGE_ID_PATTERN } from "./agent-ask.js";
import { ensureGrid, readCells as readSheetCells, readValues, writeBlock } from "./cells.js";
import { type Envelope, respond, toPlatformError } from "./envelope.js";
import { checkPlaceRequest, placeStep } from "./place.js";
import type { PlaceStepAnswer, PlaceStepRequest } from "./place-protocol.js";
import {
  checkStepRequest,
  EXECUTION_MS,
  markStopped,
  RUN_ID_PATTERN,
  readStatus,
  refreshStep,
  SAFETY_MS,
} from "./refresh.js";
import type { RefreshStatus, RefreshStepAnswer, RefreshStepRequest } from "./refresh-protocol.js";
import { noteWorkbookEdited, workbookRevision } from "./revision.js";
import { loadSettings, secretsOf, storeSettings } from "./settings-store.js";
import { listSheets, readActiveContext, selectRangeIn } from "./spreadsheet.js";
import { createUrlFetchTransport, type Destinations } from "./url-fetch-transport.js";

export type {
  Envelope,
  PlaceStepAnswer,
  PlaceStepRequest,
  RefreshStatus,
  RefreshStepAnswer,
  RefreshStepRequest,
};

/**
 * What the sidebar's poll answers: where the user is, and the workbook's revision (a short opaque
 * string that changes when a sheet is added, renamed, moved or removed, or when "Disconnect report
 * here" from the add-on menu changed this spreadsheet's reports). Nothing secret.
 */
export interface PolledContext {
  context: ActiveContext;
  revision: string;
}

/** One refresh of the pane, with the revision it reflects (the poll compares later revisions with it). */
export interface RevisedSnapshot extends WorkbookSnapshot {
  revision: string;
}

const TITLE = "Reporting Platform";
/** Sheets shows sidebars 300 px wide. */
const SIDEBAR_WIDTH = 300;

// ---------------------------------------------------------------------------------------------
// Triggers and menu items.

/**
 * Simple trigger: adds the add-on menu. It also runs in AuthMode.NONE (before the user has
 * authorized the add-on in this document), where properties cannot be read: it reads nothing.
 */
export function onOpen(_e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem("Open", "showSidebar")
    // Google Sheets has no cell context menu for add-ons: the command lives in the add-on menu.
    .addItem("Disconnect report here", "disconnectReportHere")
    // A toast cannot hold a button (Spreadsheet.toast takes text only): Undo is a menu item.
    .addItem("Undo disconnect", "undoDisconnect")
    .addToUi();
}

/** Runs when the add-on is installed from inside a document: the menu at once, without a reload. */
export function onInstall(e?: GoogleAppsScript.Events.AddonOnInstall): void {
  onOpen(e as GoogleAppsScript.Events.SheetsOnOpen | undefined);
}

/**
 * Menu "Open": the task pane, Sidebar.html (its lazy parts come later, from loadSidebarChunks).
 * HtmlService ignores meta tags written in the file: the viewport is set here, with one of the few
 * names addMetaTag accepts.
 */
export function showSidebar(): void {
  const html = HtmlService.createHtmlOutputFromFile("Sidebar")
    .setTitle(TITLE)
    .setWidth(SIDEBAR_WIDTH)
    .addMetaTag("viewport", "width=device-width, initial-scale=1");
  SpreadsheetApp.getUi().showSidebar(html);
}

/**
 * Menu "Disconnect report here": the placement under the active cell, through the same core flow
 * as the pane (disconnect-flow.ts: the plan at the cell from the workbook's list, the service's
 * DELETE, the list read again when its answer was lost), and a toast with the outcome. On a cell
 * without a placement it says so and sends nothing.
 */
export function disconnectReportHere(): void {
  const toast = (message: string) => SpreadsheetApp.getActive().toast(message, TITLE, 8);
  let settings: StoredSettings | null = null;
  // Once a DELETE was sent, the list may have changed, even if its answer was lost: the open
  // sidebar's next poll sees a new revision and reloads.
  let sentTo: string | null = null;
  const failure = (error: unknown) => {
    const known = settings;
    return toPlatformError(error, () => (known ? secretsOf(known) : []));
  };
  try {
    settings = loadSettings();
    const { client } = platformClient(settings);
    const deploymentId = pickedDeployment(settings);
    const context = readActiveContext();
    const result = runDisconnectSync(
      { at: context },
      {
        listReports: () => client.listReports(deploymentId, { externalWorkbookId: context.workbookId }),
        disconnect: (placement, input) => {
          sentTo = context.workbookId;
          try {
            return client.disconnectReportFromWorkbook(
              placement.report.deploymentId,
              placement.report.id,
              input,
            );
          } catch (error) {
            // Whatever failed, as the service's error: a script failure may have been applied too.
            throw failure(error);
          }
        },
        // The active sheet, where the placement is: messages name it as it is called now.
        sheets: () => [{ id: context.sheetId ?? null, name: context.sheetName }],
      },
    );
    const outcome = disconnectOutcome(result, (error) => failure(error).message);
    toast(
      outcome.ok && result.placement && sentTo
        ? keepForUndo(sentTo, result.placement, outcome.message)
        : outcome.message,
    );
  } catch (error) {
    toast(failure(error).message);
  } finally {
    if (sentTo !== null) noteWorkbookEdited(sentTo);
  }
}

/**
 * Menu "Undo disconnect": re-creates the placement the menu's last "Disconnect report here" in this
 * spreadsheet removed (kept for UNDO_SECONDS), exactly as it was, through the core's undo flow
 * (undo-disconnect.ts: the list looked at first, then connect-workbook), and toasts the outcome.
 */
export function undoDisconnect(): void {
  const toast = (message: string) => SpreadsheetApp.getActive().toast(message, TITLE, 8);
  let settings: StoredSettings | null = null;
  let sentTo: string | null = null;
  try {
    const context = readActiveContext();
    const removed = takeUndo(context.workbookId);
    if (!removed) {
      toast(
        "Nothing to undo: no report was disconnected from this menu in this spreadsheet in the last 30 minutes.",
      );
      return;
    }
    settings = loadSettings();
    const { client } = platformClient(settings);
    const deploymentId = pickedDeployment(settings);
    sentTo = context.workbookId;
    const outcome = runUndoDisconnectSync(
      removed,
      {
        listReports: () => client.listReports(deploymentId, { externalWorkbookId: context.workbookId }),
        connect: (d, r, input) => client.connectReportToWorkbook(d, r, input),
      },
      listSheets(),
    );
    // Undo stays on the menu while it may still work (nothing was restored, and nothing stands in the way).
    if (outcome.canRetry) keepUndo(context.workbookId, removed);
    else forgetUndo(context.workbookId);
    toast(outcome.message);
  } catch (error) {
    const known = settings;
    toast(toPlatformError(error, () => (known ? secretsOf(known) : [])).message);
  } finally {
    if (sentTo !== null) noteWorkbookEdited(sentTo);
  }
}

/** How long the menu's Undo keeps a disconnected placement: 30 minutes. */
const UNDO_SECONDS = 1800;
const UNDO_PREFIX = "reportingPlatform.undo.";
/** Characters per cache value: at most 3 bytes each in UTF-8, within CacheService's 100 KB a value. */
const UNDO_PART_CHARS = 30_000;

/** Keeps `placement` for the menu's Undo, and says how to undo in the outcome. */
function keepForUndo(workbookId: string, placement: PlacedReport, message: string): string {
  return keepUndo(workbookId, removedPlacement(placement))
    ? `${message} To undo it: Extensions > Reporting Platform > Undo disconnect.`
    : message;
}

/**
 * The record in the user's cache, in parts (a result checksum of 2,000 chunks is larger than one
 * cache value). False when the cache refused it: then no Undo is offered.
 */
function keepUndo(workbookId: string, removed: RemovedPlacement): boolean {
  try {
    const cache = CacheService.getUserCache();
    if (!cache) return false;
    const text = JSON.stringify(removed);
    const parts: string[] = [];
    for (let i = 0; i < text.length; i += UNDO_PART_CHARS) parts.push(text.slice(i, i + UNDO_PART_CHARS));
    for (let i = 0; i < parts.length; i++)
      cache.put(`${UNDO_PREFIX}${workbookId}.${i}`, parts[i]!, UNDO_SECONDS);
    cache.put(`${UNDO_PREFIX}${workbookId}`, String(parts.length), UNDO_SECONDS);
    return true;
  } catch {
    return false;
  }
}

/** The record kept for this spreadsheet, or null (none, expired, dropped by the cache, unreadable). */
function takeUndo(workbookId: string): RemovedPlacement | null {
  const cache = CacheService.getUserCache();
  const count = Number(cache?.get(`${UNDO_PREFIX}${workbookId}`) ?? "0");
  if (!cache || !Number.isInteger(count) || count < 1 || count > 20) return null;
  let text = "";
  for (let i = 0; i < count; i++) {
    const part = cache.get(`${UNDO_PREFIX}${workbookId}.${i}`);
    if (part === null) return null;
    text += part;
  }
  try {
    const parsed = RemovedPlacementSchema.safeParse(JSON.parse(text));
    return parsed.success ? (parsed.data as RemovedPlacement) : null;
  } catch {
    return null;
  }
}

function forgetUndo(workbookId: string): void {
  CacheService.getUserCache()?.remove(`${UNDO_PREFIX}${workbookId}`);
}

// ---------------------------------------------------------------------------------------------
// The sidebar's functions (google.script.run): each is one round trip for one user action.

/**
 * Where the user is (spreadsheet, sheet, cell) and the workbook's revision, in one call: polled by
 * the sidebar while it is visible. Reads no settings and sends no request.
 */
export function getActiveContext(): Envelope<PolledContext> {
  return respond(() => {
    const context = readActiveContext();
    return { context, revision: workbookRevision(context.workbookId) };
  });
}

/** One refresh of the pane: the context, the sheets and this spreadsheet's reports together. */
export function refreshPane(): Envelope<RevisedSnapshot> {
  return sidebarCall((settings) => {
    const context = readActiveContext();
    const sheets = listSheets();
    // Read before the reports: a menu disconnect while they load shows up at the next poll.
    const revision = workbookRevision(context.workbookId, sheets);
    const { client } = platformClient(settings);
    const problems: string[] = [];
    const reports = client.listReports(pickedDeployment(settings), {
      externalWorkbookId: context.workbookId,
      onProblem: (p) => problems.push(p),
    });
    return { context, sheets, reports, problems, revision };
  });
}

export function selectRange(target: RangeTarget): Envelope<null> {
  return respond(() => {
    selectRangeIn(checkArgument(RangeTargetArgumentSchema, target, "the range to select"));
    return null;
  });
}

export function getSettings(): Envelope<PublicSettings> {
  return sidebarCall((settings) => toPublicSettings(settings));
}

/**
 * Validates with the core's rules (each field's type, HTTPS, the chat URL on the tenant's domain or
 * confirmed, each secret bound to its origin) and stores; never returns a secret.
 */
export function saveSettings(patch: SettingsPatch): Envelope<PublicSettings> {
  return sidebarCall((settings) => {
    const next = mergeSettings(settings, patch, chatUrlBelongsToTenant);
    storeSettings(next);
    return toPublicSettings(next);
  });
}

export function listDeployments(): Envelope<Deployment[]> {
  return sidebarCall((settings) => platformClient(settings).client.listDeployments());
}

/** Disconnect: removes the one placement `input` addresses; answers the report as it stands after. */
export function disconnectPlacement(
  deploymentId: number,
  reportId: number,
  input: DisconnectInput,
): Envelope<Report> {
  return sidebarCall((settings) => {
    const args = checkArgument(DisconnectArgumentsSchema, [deploymentId, reportId, input], "the placement");
    return platformClient(settings).client.disconnectReportFromWorkbook(...args);
  });
}

/**
 * connect-workbook for the pane: a disconnect undone, a renamed tab's address corrected, Move here
 * (addressOnly). Answers the report as it stands after.
 */
export function connectPlacement(
  deploymentId: number,
  reportId: number,
  input: ConnectWorkbookInput,
): Envelope<Report> {
  return sidebarCall((settings) => {
    const args = checkArgument(ConnectArgumentsSchema, [deploymentId, reportId, input], "the placement");
    return platformClient(settings).client.connectReportToWorkbook(...args);
  });
}

export function listScimUsers(page: { count: number; startIndex: number }): Envelope<ScimUserPage> {
  return sidebarCall((settings) => {
    const { count, startIndex } = checkArgument(ScimPageArgumentSchema, page, "the page of users");
    directoryAccess(settings);
    const { client } = platformClient(settings);
    return toDirectoryUserPage(client.listScimUsers({ count, startIndex }), startIndex);
  });
}

/**
 * Asks the agent and returns the whole answer: UrlFetchApp gets the body at once, and waits about
 * 60 s per fetch within a 6-minute execution (agent-ask.ts). The sidebar sends the request's
 * messageId, so that `stopAnswer` can address this run before its conversation id is known.
 */
export function askAgent(request: AskInput & { messageId?: string }): Envelope<AgentAnswer> {
  const startedAt = Date.now();
  return sidebarCall((settings) => {
    const ask = checkArgument(AskArgumentSchema, request, "the question");
    // The argument check keeps only the question's fields; the messageId is checked on its own.
    const messageId = request?.messageId ?? newMessageId(Date.now(), uuidRandomBytes);
    if (typeof messageId !== "string" || !MESSAGE_ID_PATTERN.test(messageId)) {
      throw new PlatformError("bad-request", "The question could not be sent (its message id is malformed).");
    }
    return askWithinLimits({
      chat: agentChat(settings, { retries: false }),
      request: {
        input: ask.input,
        chatId: ask.chatId ?? undefined,
        messageId,
        sessionSettings: ask.sessionSettings ?? sessionSettingsOf(settings),
      },
      startedAt,
      now: () => Date.now(),
      sleep,
      stopRequested: () => stopRequested(messageId),
    });
  });
}

/**
 * Stop, addressed by the request's own messageId: the answer of a new conversation has no
 * conversation id to abort until it arrives. Marks the messageId as stopped (in the user's cache,
 * for 10 minutes); the execution still running `askAgent` for it stops before its next attempt and
 * discards what arrives. The sidebar has already stopped waiting. Reads no settings, sends nothing.
 */
export function stopAnswer(messageId: string): Envelope<null> {
  return respond(() => {
    if (typeof messageId !== "string" || !MESSAGE_ID_PATTERN.test(messageId)) {
      throw new PlatformError("bad-request", "There is no answer with that id to stop.");
    }
    CacheService.getUserCache()?.put(STOP_PREFIX + messageId, "1", STOP_SECONDS);
    return null;
  });
}

const STOP_PREFIX = "reportingPlatform.stop.";
const STOP_SECONDS = 600;

function stopRequested(messageId: string): boolean {
  try {
    return CacheService.getUserCache()?.get(STOP_PREFIX + messageId) === "1";
  } catch {
    return false; // the cache is unavailable: the answer is shown, as it would be without Stop
  }
}

/**
 * The service's client and the data client of one refresh or place execution: the load stops in
 * time to answer the sidebar (refresh.ts), and the data API of a deployment the tenant names is the
 * only other place its token goes.
 */
function dataClients(settings: StoredSettings, remaining: () => number) {
  const destinations: Destinations = { ...destinationsOf(settings), dataBases: [] };
  const transport = createUrlFetchTransport(destinations);
  const client = createSyncPlatformClient({ ...managementAccess(settings), transport, sleep });
  const data = createSyncDataClient({
    platform: client,
    transport,
    sleep,
    secrets: secretsOf(settings),
    remainingMs: () => remaining() - SAFETY_MS,
    onDataUrl: (_id, base) => destinations.dataBases?.push(base),
  });
  return { client, data };
}

/**
 * Refresh (docs/google-sheets.md, "Refresh in Google Sheets"): one execution of a refresh run over
 * the placements the sidebar names by key, through the core's refresh flow: data loaded, cells
 * written in blocks (`setValues`, then `SpreadsheetApp.flush()`), the refresh recorded. It stops in
 * time for the 6-minute limit and answers where the next call goes on, or the overwrite question
 * to ask first.
 */
export function refreshPlacementsStep(request: RefreshStepRequest): Envelope<RefreshStepAnswer> {
  const startedAt = Date.now();
  const remaining = () => EXECUTION_MS - (Date.now() - startedAt);
  return sidebarCall((settings) => {
    const checked = checkStepRequest(request);
    const context = readActiveContext();
    const sheets = listSheets();
    const { client, data } = dataClients(settings, remaining);
    const reports = client.listReports(pickedDeployment(settings), {
      externalWorkbookId: context.workbookId,
    });
    return refreshStep(checked, {
      platform: client,
      data,
      reports,
      workbookId: context.workbookId,
      sheets,
      cells: { write: writeBlock, read: readSheetCells, prepare: ensureGrid },
      cache: userCache(),
      remaining,
      now: () => Date.now(),
    });
  });
}

/**
 * "Place a report here": the reports of the deployment in Settings, every page (the pane searches
 * them by name and marks the ones already in this spreadsheet).
 */
export function listDeploymentReports(): Envelope<Report[]> {
  return sidebarCall((settings) => platformClient(settings).client.listReports(pickedDeployment(settings)));
}

/**
 * Place a report here (docs/google-sheets.md, "Place a report here in Google Sheets"): one
 * execution of a place through the core's place flow (place.ts): the data loaded, the cells
 * written as a refresh writes them, then `connect-workbook`. It answers the outcome, or the
 * overwrite question to ask before anything is written, or where the next call goes on (the
 * 6-minute limit). Cancel is `stopRefresh` with the same run id.
 */
export function placeReportStep(request: PlaceStepRequest): Envelope<PlaceStepAnswer> {
  const startedAt = Date.now();
  const remaining = () => EXECUTION_MS - (Date.now() - startedAt);
  return sidebarCall((settings) => {
    const checked = checkPlaceRequest(request);
    const context = readActiveContext();
    const { client, data } = dataClients(settings, remaining);
    // The pane shows the new placement from the outcome: no revision is noted (no reload).
    return placeStep(checked, {
      platform: client,
      data,
      listHere: () =>
        client.listReports(pickedDeployment(settings), { externalWorkbookId: context.workbookId }),
      workbookId: context.workbookId,
      workbookName: context.workbookName,
      sheets: listSheets(),
      cells: { write: writeBlock, read: readSheetCells, prepare: ensureGrid },
      cache: userCache(),
      remaining,
      now: () => Date.now(),
    });
  });
}

/**
 * Hand edits: the values of one range as the sheet holds them now, for the pane to compare with a
 * placement's checksum. Dates come back as the serial numbers a refresh wrote (google.script.run
 * cannot carry a Date); at most READ_CELLS_PER_CALL cells a call (the sidebar reads in slices).
 * Reads no settings and sends no request.
 */
export function readCells(read: CellRead): Envelope<(string | number | boolean)[][]> {
  return respond(() => {
    const r = read as { sheet?: { id?: unknown; name?: unknown }; range?: unknown } | null;
    const sheet = r?.sheet;
    if (
      !sheet ||
      typeof sheet !== "object" ||
      !(sheet.id === null || typeof sheet.id === "string") ||
      typeof sheet.name !== "string" ||
      typeof r?.range !== "string" ||
      r.range.length > 40
    ) {
      throw new PlatformError(
        "bad-request",
        "The cells to read are malformed. Close and reopen the sidebar.",
      );
    }
    return readValues({ sheet: { id: sheet.id, name: sheet.name }, range: r.range });
  });
}

/**
 * Where a refresh run stands (the placement and its phase), polled by the sidebar while a
 * `refreshPlacementsStep` runs in another execution. Reads the user's cache only.
 */
export function refreshStatus(runId: string): Envelope<RefreshStatus | null> {
  return respond(() => readStatus(userCache(), checkRunId(runId)));
}

/**
 * Stop, for a refresh run: marks it in the user's cache; the execution running it stops before the
 * next placement, or during a load, and finishes a placement whose cells it is writing.
 */
export function stopRefresh(runId: string): Envelope<null> {
  return respond(() => {
    markStopped(userCache(), checkRunId(runId));
    return null;
  });
}

function checkRunId(runId: string): string {
  if (typeof runId !== "string" || !RUN_ID_PATTERN.test(runId)) {
    throw new PlatformError("bad-request", "There is no refresh with that id.");
  }
  return runId;
}

function userCache(): GoogleAppsScript.Cache.Cache | null {
  try {
    return CacheService.getUserCache();
  } catch {
    return null; // progress and Stop are then unavailable; the refresh itself still runs
  }
}

/** The sidebar's chunk files (`SidebarChunk_*`), named by the build; the only files this serves. */
declare const __SIDEBAR_CHUNKS__: readonly string[];
const SIDEBAR_CHUNKS: readonly string[] = typeof __SIDEBAR_CHUNKS__ === "undefined" ? [] : __SIDEBAR_CHUNKS__;

/**
 * The code of lazily loaded parts of the sidebar (agent chat, settings, menus...), which
 * Sidebar.html does not inline: one call brings every chunk a part needs. Each name must be one of
 * the built chunk files; the answer is each file's script, in the order asked.
 */
export function loadSidebarChunks(names: string[]): Envelope<string[]> {
  return respond(() => {
    if (!Array.isArray(names) || names.length === 0 || names.length > SIDEBAR_CHUNKS.length) {
      throw new PlatformError(
        "bad-request",
        "The sidebar asked for its code in a form the script cannot read.",
      );
    }
    return names.map((name) => {
      if (typeof name !== "string" || !SIDEBAR_CHUNKS.includes(name)) {
        // Only a string is quoted: String() of a JSON-legal object ({"toString": 1}, an array
        // nested thousands deep) throws, and a script error must never answer a bad argument.
        const shown = typeof name === "string" ? name.slice(0, 60) : "not a file name";
        throw new PlatformError(
          "bad-request",
          `The sidebar asked for code the add-on does not have (${shown}). Close and reopen the sidebar.`,
        );
      }
      const content = HtmlService.createHtmlOutputFromFile(name).getContent();
      const code = /^\s*<script>([\s\S]*)<\/script>\s*$/.exec(content)?.[1];
      if (code === undefined) {
        throw new PlatformError("server", `The add-on's file ${name} is damaged. Reinstall the add-on.`);
      }
      return code;
    });
  });
}

/** Stops a running answer (the sidebar calls it while `askAgent` still runs in another execution). */
export function abortChat(chatId: string): Envelope<null> {
  return sidebarCall((settings) => {
    if (!ChatIdArgumentSchema.safeParse(chatId).success) {
      throw new PlatformError("bad-request", "There is no conversation to stop.");
    }
    agentChat(settings).abort(chatId, settings.externalId ? { externalId: settings.externalId } : undefined);
    return null;
  });
}

// ---------------------------------------------------------------------------------------------
// Shared by the functions above.

function sidebarCall<T>(work: (settings: StoredSettings) => T): Envelope<T> {
  let settings: StoredSettings | null = null;
  return respond(
    () => {
      settings = loadSettings();
      return work(settings);
    },
    () => (settings ? secretsOf(settings) : []),
  );
}

/**
 * The only places a request may go: the configured tenant and the configured chat URL, and the
 * chat URL only while it is on the tenant's domain or confirmed. Saving checks that already;
 * checking again here keeps a stored value that skipped the check (an older version's) from
 * receiving the agent key.
 */
function destinationsOf(settings: StoredSettings): Destinations {
  let tenantBase: string | null = null;
  if (settings.tenantUrl) tenantBase = tenantOrigin(settings.tenantUrl);
  const chatUrl = chatUrlAllowed(settings, chatUrlBelongsToTenant) ? settings.chatUrl : null;
  return { tenantBase, chatUrl };
}

/** Utilities.getUuid: a random (version 4) UUID from a cryptographic source; its fixed bits are skipped. */
const uuidRandomBytes: RandomBytes = (length) => {
  const out: number[] = [];
  while (out.length < length) {
    const hex = Utilities.getUuid().replace(/-/g, "");
    for (let i = 0; i < 16 && out.length < length; i++) {
      if (i !== 6 && i !== 8) out.push(Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16));
    }
  }
  return Uint8Array.from(out);
};

function sleep(ms: number): void {
  Utilities.sleep(ms);
}

function platformClient(settings: StoredSettings): { client: SyncPlatformClient } {
  return {
    client: createSyncPlatformClient({
      // Each key only for the tenant it was saved for.
      ...managementAccess(settings),
      transport: createUrlFetchTransport(destinationsOf(settings)),
      sleep,
    }),
  };
}

function agentChat(settings: StoredSettings, options: { retries?: boolean } = {}) {
  return createSyncAgentChat({
    ...agentChatSettings(settings, chatUrlBelongsToTenant),
    randomBytes: uuidRandomBytes,
    transport: createUrlFetchTransport(destinationsOf(settings)),
    sleep,
    // askAgent retries itself, watching the 6-minute clock.
    ...(options.retries === false ? { retryDelaysMs: [] } : {}),
  });
}

function sessionSettingsOf(settings: StoredSettings) {
  return {
    ...(settings.externalId ? { externalId: settings.externalId } : {}),
    ...(settings.email ? { email: settings.email } : {}),
    ...(settings.userAttributes.length ? { userAttributes: settings.userAttributes } : {}),
  };
}
