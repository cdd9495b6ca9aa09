/**
 * The Excel fake is as strict as Office.js's request context (test/support/office-proxy.ts, from
 * Microsoft's documentation): a property answers only after `load` and `context.sync()`, a
 * missing worksheet fails the sync with `ItemNotFound`, `getItemOrNullObject` gives a null object
 * readable after the sync, commands take effect at the sync, and each `Excel.run` starts afresh.
 * A fake kinder than Excel would let a host that skips a `load` or a `sync` pass.
 */
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { WORKBOOK_ID_PROPERTY } from "../../../src/hosts/excel/host.js";
import { createExcelMock } from "../../support/excel-mock.js";
import { createRequestContext } from "../../support/office-proxy.js";
import { officeStandIn } from "../../support/office-stand-in.js";

type Context = Excel.RequestContext;

function code(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return (error as { code?: unknown }).code;
  }
  return "no error";
}

describe("the Excel fake's request context", () => {
  it("answers a property only after load and sync (PropertyNotLoaded before)", async () => {
    const mock = createExcelMock({ workbookName: "Budget.xlsx" });
    await mock.Excel.run(async (context: Context) => {
      const workbook = context.workbook;
      expect(code(() => workbook.name)).toBe("PropertyNotLoaded");
      workbook.load("name");
      expect(code(() => workbook.name)).toBe("PropertyNotLoaded"); // loaded, not synced
      await context.sync();
      expect(workbook.name).toBe("Budget.xlsx");
      const cell = workbook.getActiveCell().load("address");
      const sheet = workbook.worksheets.getActiveWorksheet().load("id");
      await context.sync();
      expect(cell.address).toBe("Sales!B2");
      expect(sheet.id).toBeTruthy();
      expect(code(() => sheet.name)).toBe("PropertyNotLoaded"); // not asked for
    });
  });

  it("reads the workbook as of the sync that loaded it; a new Excel.run starts with nothing loaded", async () => {
    const mock = createExcelMock();
    const cell = await mock.Excel.run(async (context: Context) => {
      const c = context.workbook.getActiveCell().load("address");
      await context.sync();
      return c;
    });
    mock.moveTo("Sales!D9");
    expect(cell.address).toBe("Sales!B2");
    await mock.Excel.run(async (context: Context) => {
      const c = context.workbook.getActiveCell();
      expect(code(() => c.address)).toBe("PropertyNotLoaded");
      c.load("address");
      await context.sync();
      expect(c.address).toBe("Sales!D9");
    });
  });

  it("loads a collection's items with the properties asked for", async () => {
    const mock = createExcelMock();
    await mock.Excel.run(async (context: Context) => {
      const sheets = context.workbook.worksheets;
      expect(code(() => sheets.items)).toBe("PropertyNotLoaded");
      sheets.load("items/name");
      await context.sync();
      expect(sheets.items.map((s) => s.name)).toEqual(["Sales", "Q1 Sales"]);
      expect(code(() => sheets.items[0]!.id)).toBe("PropertyNotLoaded");
    });
  });

  it("fails the sync with ItemNotFound when getItem names a sheet that is not there", async () => {
    const mock = createExcelMock();
    const run = mock.Excel.run(async (context: Context) => {
      const sheet = context.workbook.worksheets.getItem("Gone");
      sheet.activate();
      await context.sync();
    });
    await expect(run).rejects.toMatchObject({ code: "ItemNotFound" });
    expect(mock.state.activated).toEqual([]);
  });

  it("gives a null object for a missing custom property, whose isNullObject is readable after the sync", async () => {
    const mock = createExcelMock();
    await mock.Excel.run(async (context: Context) => {
      const stored = context.workbook.properties.custom
        .getItemOrNullObject(WORKBOOK_ID_PROPERTY)
        .load("value");
      expect(code(() => stored.isNullObject)).toBe("PropertyNotLoaded");
      await context.sync();
      expect(stored.isNullObject).toBe(true);
      expect(stored.value).toBeUndefined();
    });
    mock.setStoredWorkbookId("kept");
    await mock.Excel.run(async (context: Context) => {
      const stored = context.workbook.properties.custom
        .getItemOrNullObject(WORKBOOK_ID_PROPERTY)
        .load("value");
      await context.sync();
      expect(stored.isNullObject).toBe(false);
      expect(stored.value).toBe("kept");
    });
  });

  it("applies commands at the sync, not before", async () => {
    const mock = createExcelMock();
    await mock.Excel.run(async (context: Context) => {
      context.workbook.properties.custom.add(WORKBOOK_ID_PROPERTY, "new-id");
      context.workbook.worksheets.getItem("Sales").activate();
      expect(mock.storedWorkbookId()).toBeUndefined();
      expect(mock.state.activated).toEqual([]);
      await context.sync();
    });
    expect(mock.storedWorkbookId()).toBe("new-id");
    expect(mock.state.activated).toEqual(["{00000000-0001-0000-0000-000000000000}"]);
  });

  it("refuses to load a property the object does not have (InvalidArgument)", () => {
    const model = createRequestContext();
    const proxy = model.proxy<{ load(p: string): unknown }>(() => ({ name: "x" }), { properties: ["name"] });
    expect(code(() => proxy.load("nom"))).toBe("InvalidArgument");
  });
});

describe("the page's Office.js stand-in (office-stand-in.ts)", () => {
  it("has the same request context: PropertyNotLoaded before load and sync, ItemNotFound, null objects", async () => {
    const script = await officeStandIn({
      workbookName: "Budget.xlsx",
      custom: { [WORKBOOK_ID_PROPERTY]: "kept" },
      sheets: [{ id: "{S1}", name: "Sales" }],
      active: { sheet: "Sales", cell: "B2" },
    });
    // The script as the page runs it, with the few globals it touches.
    const globals = { document: {}, location: { origin: "https://addin.example" }, setTimeout, console };
    const { Excel } = runInNewContext(`var window = this; ${script}; window`, globals) as {
      Excel: { run<T>(batch: (context: Context) => Promise<T>): Promise<T> };
    };
    await Excel.run(async (context) => {
      const workbook = context.workbook.load("name");
      expect(code(() => workbook.name)).toBe("PropertyNotLoaded");
      const stored = context.workbook.properties.custom
        .getItemOrNullObject(WORKBOOK_ID_PROPERTY)
        .load("value");
      const missing = context.workbook.properties.custom.getItemOrNullObject("Other").load("value");
      await context.sync();
      expect(workbook.name).toBe("Budget.xlsx");
      expect(stored.value).toBe("kept");
      expect(missing.isNullObject).toBe(true);
    });
    await expect(
      Excel.run(async (context) => {
        context.workbook.worksheets.getItem("Gone").activate();
        await context.sync();
      }),
    ).rejects.toMatchObject({ code: "ItemNotFound" });
  });
});
