/**
 * The one interface every spreadsheet host implements (Excel, Google Sheets, the in-browser
 * preview). The task pane talks only to this; there is no `if (isExcel)` anywhere else.
 *
 * A host adapter is thin: it reads and writes the spreadsheet, stores per-user settings, and hands
 * the pane a `PlatformGateway` (in Excel and the preview the pane calls the service itself; in
 * Google Sheets the Apps Script server does, so the API key never reaches the sidebar).
 * Decisions (which placement, which input, what message) belong in src/core.
 */
import type { ChatMessage } from "../core/chat-messages.js";
import type { AgentAnswer } from "../core/chat-request.js";
import type { DirectoryUser, DirectoryUserPage } from "../core/directory.js";
import type { Outcome } from "../core/messages.js";
import type { PlaceItem, PlaceOutcome } from "../core/place-flow.js";
import type { SheetRef } from "../core/placement-view.js";
import type { CellRead, RefreshOutcome, RefreshProgress } from "../core/refresh-flow.js";
import type { RefreshItem } from "../core/refresh-plan.js";
import type {
  ConnectWorkbookInput,
  Deployment,
  DisconnectInput,
  Report,
  SessionSettings,
} from "../core/schema.js";
import type { PublicSettings, SettingsPatch } from "../core/settings.js";

export type { DirectoryUser, DirectoryUserPage, Outcome, PublicSettings, SettingsPatch };

/** A range to select: the sheet by its id (else by name: a tab may have been renamed) and A1 ("B2:F20"). */
export interface RangeTarget {
  sheetId: string | null;
  sheetName: string;
  range: string;
}

/** Where the user is. */
export interface ActiveContext {
  /** The spreadsheet's id as the service knows it (`externalWorkbookId`). */
  workbookId: string;
  /** The file's name, for display. */
  workbookName: string;
  /** The active sheet's id in its host (opaque), or null when the host has none. */
  sheetId: string | null;
  sheetName: string;
  /** The active cell, A1 ("B2"). */
  cell: string;
}

export type SheetInfo = SheetRef;

/** The pane's view of one refresh: where the user is and the reports placed in this workbook. */
export interface WorkbookSnapshot {
  context: ActiveContext;
  sheets: SheetInfo[];
  reports: Report[];
  /** Reports the service sent that could not be read: shown as a warning, the rest still listed. */
  problems: string[];
}

/** The pane's names for the core's directory users (one SCIM ListResponse page, read for display). */
export type ScimUser = DirectoryUser;
export type ScimUserPage = DirectoryUserPage;

export interface AskOptions {
  signal?: AbortSignal;
  onMessage?: (message: ChatMessage, all: readonly ChatMessage[]) => void;
}

export interface AskInput {
  input: string;
  chatId?: string;
  sessionSettings: SessionSettings;
}

/**
 * What the pane asks of the service. Every method rejects with a `PlatformError` (or its JSON form
 * revived as one) whose message says what to do.
 */
export interface PlatformGateway {
  getSettings(): Promise<PublicSettings>;
  saveSettings(patch: SettingsPatch): Promise<PublicSettings>;
  listDeployments(): Promise<Deployment[]>;
  disconnect(deploymentId: number, reportId: number, input: DisconnectInput): Promise<Report>;
  /**
   * `PUT .../connect-workbook`: places a report, re-creates a disconnected placement (Undo), or with
   * `addressOnly` corrects a placement's address (a renamed tab, Move here). Answers the report.
   */
  connectReportToWorkbook(
    deploymentId: number,
    reportId: number,
    input: ConnectWorkbookInput,
  ): Promise<Report>;
  listScimUsers(page: { count: number; startIndex: number }): Promise<ScimUserPage>;
  ask(request: AskInput, options?: AskOptions): Promise<AgentAnswer>;
  abortChat(chatId: string): Promise<void>;
}

/**
 * A command that starts outside the pane: the preview's right-click menu. (Excel's right-click
 * command calls the mounted pane's store itself: taskpane/paneStore.ts, `mountedPane`.)
 */
export interface HostCommand {
  type: "disconnect-here";
  context: ActiveContext;
  /** Resolve when the pane has handled the command; the host then reports or completes. */
  done(outcome: Outcome): void;
}

/** A per-user key-value store that never travels with the document. */
export interface SecretStore {
  get(key: string): Promise<string | null>;
  set(key: string, value: string): Promise<void>;
  remove(key: string): Promise<void>;
}

/** What the pane hands a refresh: where to tell progress and outcomes, and how to ask the user. */
export interface RefreshHandlers {
  /** Stop (docs/pane.md, "Refresh all"): a load is abandoned, a placement being written finished. */
  signal?: AbortSignal;
  onProgress?(progress: RefreshProgress): void;
  onOutcome?(outcome: RefreshOutcome): void;
  /** Asked before cells that are not the placement's are overwritten (Overwrite / Cancel). */
  confirmOverwrite(question: string): Promise<boolean>;
}

/** What the pane hands a place: how to ask the user, and how to cancel before anything is written. */
export interface PlaceHandlers {
  signal?: AbortSignal;
  /** Asked before cells that are not empty are overwritten (Overwrite / Cancel). */
  confirmOverwrite(question: string): Promise<boolean>;
}

export type HostKind = "excel" | "sheets" | "preview";

export interface SpreadsheetHost {
  readonly kind: HostKind;
  /** "Excel", "Google Sheets", "Preview". */
  readonly label: string;
  readonly platform: PlatformGateway;
  /**
   * How the agent's answer reaches the pane: "streamed" as it is written (the default when left
   * out), or "whole" once it is ready (Google Sheets: Apps Script's UrlFetchApp cannot stream, and a
   * Stop before the answer's conversation is known only stops the waiting).
   */
  readonly agentAnswers?: "streamed" | "whole";

  /** The active workbook, sheet and cell, in one host round trip. */
  activeContext(): Promise<ActiveContext>;
  /** The context and this workbook's reports together (one round trip where the host allows). */
  loadWorkbook(): Promise<WorkbookSnapshot>;
  /**
   * Calls `listener` once per settled selection change (bursts coalesced), and when sheets are
   * renamed, added or removed. Returns the function that unsubscribes.
   */
  onContextChanged(listener: (context: ActiveContext) => void): () => void;
  /**
   * Optional: calls `listener` when the workbook changed in a way the context does not show (a sheet
   * added, renamed or removed elsewhere; a report disconnected outside the pane), so the pane
   * reloads. A host whose `onContextChanged` says all the pane needs leaves it out. Returns the
   * function that unsubscribes.
   */
  onWorkbookChanged?(listener: () => void): () => void;
  /** Activates the sheet and selects the range ("B2:F20"). */
  selectRange(target: RangeTarget): Promise<void>;
  /**
   * Refreshes the planned placements one after the other (src/core/refresh-flow.ts): new data
   * written into their cells, then recorded. Resolves with each placement's outcome. A host that
   * cannot refresh yet leaves it out, and the pane offers no Refresh.
   */
  refreshPlacements?(items: readonly RefreshItem[], handlers: RefreshHandlers): Promise<RefreshOutcome[]>;
  /**
   * Optional, with `placeReport`: the reports of the deployment in Settings, for "Place a report
   * here" to choose from (every page; a host that cannot list them leaves it out).
   */
  listDeploymentReports?(): Promise<Report[]>;
  /**
   * Optional: places a report as planned by the core (src/core/place-flow.ts): its cells written as a
   * refresh writes them, then the placement recorded with `connect-workbook`. In Excel the workbook
   * gets its id property first if it has none. A host that leaves it (or `listDeploymentReports`)
   * out offers no "Place a report here".
   */
  placeReport?(item: PlaceItem, handlers: PlaceHandlers): Promise<PlaceOutcome>;
  /**
   * Optional: the values of a range as the host reads them back (empty cells as ""), one round trip
   * per call; the pane compares them with a placement's checksum (hand edits). A host that leaves it
   * out shows no "Edited".
   */
  readCells?(read: CellRead): Promise<unknown[][]>;
  /** Commands from outside the pane. Returns the function that unsubscribes. */
  onCommand(listener: (command: HostCommand) => void): () => void;
  /**
   * Whether the host's own cell commands can act at the active cell (Excel's right-click
   * "Disconnect report here": enabled only over a placement, where the host allows it). Optional:
   * a host without such commands, or one that cannot change them, leaves them as they are.
   */
  offerCellCommands?(offer: { disconnectHere: boolean }): void;
  /** The host's theme, and changes to it. */
  theme(): "light" | "dark";
  onThemeChanged(listener: (theme: "light" | "dark") => void): () => void;
}
