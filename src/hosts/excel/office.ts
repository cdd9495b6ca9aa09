/**
 * The parts of Office.js the Excel host uses, as small structural types, so that tests can hand in
 * their fake (test/support/excel-mock.ts) and the real globals fit without casts.
 */

/** `Excel.run`: one batch of proxy objects, synchronised with `context.sync()`. */
export interface ExcelApi {
  run<T>(batch: (context: Excel.RequestContext) => Promise<T>): Promise<T>;
}

/** `OfficeRuntime.storage` of the shared runtime (not in @types/office-js). */
export interface OfficeRuntimeStorage {
  getItem(key: string): Promise<string | null>;
  setItem(key: string, value: string): Promise<void>;
  removeItem(key: string): Promise<void>;
}

interface OfficeAsyncResult {
  status: string;
  error?: { message?: string } | null;
}

/** The members of the `Office` namespace the host and the command touch. */
export interface OfficeApi {
  context: {
    requirements?: { isSetSupported(name: string, minVersion?: string): boolean } | null;
    officeTheme?: { bodyBackgroundColor?: string | null } | null;
    partitionKey?: string | null;
    /** DialogApi 1.1: `displayDialogAsync`; `messageParent` in the dialog's own page. */
    ui?: {
      displayDialogAsync?(
        url: string,
        options: { height?: number; width?: number; displayInIframe?: boolean },
        callback: (result: { status: unknown; value?: OfficeDialog }) => void,
      ): void;
    } | null;
    document?: {
      addHandlerAsync?(
        eventType: unknown,
        handler: (args: unknown) => void,
        callback?: (result: OfficeAsyncResult) => void,
      ): void;
    } | null;
  };
  EventType?: {
    DocumentSelectionChanged?: unknown;
    DialogMessageReceived?: unknown;
    DialogEventReceived?: unknown;
  } | null;
  addin?: {
    showAsTaskpane?(): Promise<void>;
    /** SharedRuntime 1.1: `args.visibilityMode` is "Taskpane" or "Hidden". */
    onVisibilityModeChanged?(handler: (args: { visibilityMode: string }) => void): unknown;
  } | null;
  actions?: { associate(actionId: string, handler: (event: CommandEvent) => void): void } | null;
  /** ContextMenuApi 1.1: enables or disables the add-in's own context menu controls. */
  contextMenu?: {
    requestUpdate(input: { controls: { id: string; enabled: boolean }[] }): Promise<void>;
  } | null;
}

/** The dialog `displayDialogAsync` opens (`Office.Dialog`). */
export interface OfficeDialog {
  close(): void;
  addEventHandler(eventType: unknown, handler: (args: unknown) => void): void;
}

/** The event Office passes to an ExecuteFunction command: it must be completed on every path. */
export interface CommandEvent {
  completed(options?: unknown): void;
}

/** The real globals, when this runs inside Office. */
export function officeGlobals(): {
  Excel: ExcelApi;
  Office: OfficeApi;
  runtimeStorage: OfficeRuntimeStorage | null;
} {
  const g = globalThis as unknown as {
    Excel?: ExcelApi;
    Office?: OfficeApi;
    OfficeRuntime?: { storage?: OfficeRuntimeStorage };
  };
  if (!g.Excel || !g.Office) {
    throw new Error("Office.js is not loaded: open this page from Excel (sideload manifest.xml).");
  }
  return { Excel: g.Excel, Office: g.Office, runtimeStorage: g.OfficeRuntime?.storage ?? null };
}
