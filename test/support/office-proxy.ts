/**
 * Office.js's request context as the Excel JavaScript API documents it, for the Excel fakes
 * (excel-mock.ts in Node; office-stand-in.ts, bundled, in the page). Written from Microsoft's
 * documentation, not from our host's code:
 *
 * - Each `Excel.run` has a request context of its own; its objects are proxies. Nothing reaches the
 *   workbook before `context.sync()`: queued commands run at the sync, in order
 *   (learn.microsoft.com/office/dev/add-ins/develop/application-specific-api-model).
 * - A property is readable only after `load` and a `context.sync()`: "Queues up a command to load the
 *   specified properties of the object. You must call context.sync() before reading the properties"
 *   (`load` of every Excel object); reading it before fails with the error code `PropertyNotLoaded`
 *   (learn.microsoft.com/office/dev/add-ins/testing/application-specific-api-error-handling). What is
 *   read is the workbook as of that sync.
 * - `getItem(key)` of an item that is not there fails the batch with `ItemNotFound` at the sync;
 *   `getItemOrNullObject(key)` does not fail: its object's `isNullObject` is true, which "you must
 *   call context.sync() before reading" (`OfficeExtension.ClientObject.isNullObject`; "*OrNullObject
 *   methods and properties"). A null object's properties read as undefined.
 * - Errors are `OfficeExtension.Error`s with a `code` ("InvalidArgument", "ItemNotFound", ...).
 *
 * No imports: it is bundled for the page as it is.
 */

export function officeError(code: string, message: string): Error {
  return Object.assign(new Error(message), { name: "RichApi.Error", code });
}

function notLoaded(name: string): Error {
  return officeError(
    "PropertyNotLoaded",
    `The property '${name}' is not available. Before reading the property's value, call the load method on the containing object and call "context.sync()" on the associated request context.`,
  );
}

/** What a proxy reads at the sync: its properties, or null when the object is not there. */
export type Source = () => Record<string, unknown> | null;

export interface ProxyOptions {
  /** The properties Office would give (all of them are loaded by an empty `load()`). */
  properties: readonly string[];
  /** The object's methods (`activate`, `getRange`, events...). */
  methods?: Record<string, unknown>;
  /** An `*OrNullObject` result: a missing object is a null object rather than `ItemNotFound`. */
  orNull?: boolean;
  /** What an `ItemNotFound` names when the object is not there. */
  key?: string;
}

export interface RequestContextModel {
  /** A proxy over `source`: its properties answer only after `load` and a sync. */
  proxy<T = Record<string, unknown>>(source: Source, options: ProxyOptions): T;
  /** Queues a command for the next sync (a write, `activate`, an event's `add`). */
  queue(command: () => void): void;
  /** `context.sync()`: runs the queued commands in order; a failing one fails the sync. */
  sync(): Promise<void>;
}

/** "id, name", ["id"], {select: "id"} -> top-level names and `items/...` sub-names. */
function parseLoad(argument: unknown, all: readonly string[]): { top: string[]; items: string[] | null } {
  let paths: string[];
  if (argument === undefined || argument === null) paths = [...all];
  else if (typeof argument === "string") paths = argument.split(",");
  else if (Array.isArray(argument)) paths = argument.map(String);
  else {
    const select = (argument as { select?: unknown }).select;
    paths =
      typeof select === "string" ? select.split(",") : Array.isArray(select) ? select.map(String) : [...all];
  }
  const top: string[] = [];
  let items: string[] | null = null;
  for (const raw of paths.map((p) => p.trim()).filter(Boolean)) {
    const [head, ...rest] = raw.split("/");
    if (head === "items" && all.includes("items")) {
      items ??= [];
      if (rest.length > 0) items.push(rest.join("/"));
    } else top.push(raw);
  }
  for (const name of top) {
    if (!all.includes(name)) {
      throw officeError("InvalidArgument", `The property '${name}' is not part of this object.`);
    }
  }
  return { top, items };
}

/** A loaded collection item: the selected properties, the others not loaded. */
function loadedItem(record: Record<string, unknown>, names: string[]): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  for (const name of Object.keys(record)) {
    Object.defineProperty(item, name, {
      enumerable: true,
      get: () => {
        if (names.length > 0 && !names.includes(name)) throw notLoaded(name);
        return record[name];
      },
    });
  }
  return item;
}

export function createRequestContext(): RequestContextModel {
  let commands: (() => void)[] = [];

  return {
    queue(command) {
      commands.push(command);
    },

    proxy<T>(source: Source, options: ProxyOptions): T {
      const loaded = new Map<string, unknown>();
      let synced = false;
      let isNull = false;
      const target: Record<string, unknown> = { ...options.methods };
      const present = () => {
        const record = source();
        if (record) return record;
        if (options.orNull) return null;
        throw officeError("ItemNotFound", `The requested resource doesn't exist: ${options.key ?? "item"}`);
      };
      // The object itself is part of the batch: a missing one fails the sync (getItem).
      commands.push(() => {
        isNull = present() === null;
        synced = true;
      });
      target.load = (argument?: unknown) => {
        const { top, items } = parseLoad(argument, options.properties);
        commands.push(() => {
          const record = present();
          isNull = record === null;
          if (!record) return;
          for (const name of top) loaded.set(name, record[name]);
          if (items) {
            const list = (record.items as Record<string, unknown>[] | undefined) ?? [];
            loaded.set(
              "items",
              list.map((r) => loadedItem(r, items)),
            );
          }
        });
        return target;
      };
      Object.defineProperty(target, "isNullObject", {
        get: () => {
          if (!synced) throw notLoaded("isNullObject");
          return isNull;
        },
      });
      for (const name of options.properties) {
        Object.defineProperty(target, name, {
          enumerable: true,
          get: () => {
            if (isNull) return undefined;
            if (!loaded.has(name)) throw notLoaded(name);
            return loaded.get(name);
          },
        });
      }
      return target as T;
    },

    async sync() {
      const batch = commands;
      commands = [];
      for (const command of batch) command();
    },
  };
}
