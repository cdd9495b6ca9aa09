/**
 * The parts of Office.js the Excel host uses, as small structural types, so that tests can hand in
 * office-addin-mock objects and the real globals fit without casts.
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
    document?: {
      addHandlerAsync?(
        eventType: unknown,
        handler: (args: unknown) => void,
        callback?: (result: OfficeAsyncResult) => void,
      ): void;
    } | null;
  };
  EventType?: { DocumentSelectionChanged?: unknown } | null;
  addin?: { showAsTaskpane?(): Promise<void> } | null;
  actions?: { associate(actionId: string, handler: (event: CommandEvent) => void): void } | null;
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
