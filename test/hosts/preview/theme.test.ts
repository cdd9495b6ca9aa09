/**
 * The preview's theme memory: the stored word is applied on load, each change is stored, and
 * anything else in the key, or a storage that throws, leaves the default theme.
 */
import { describe, expect, it } from "vitest";
import { rememberTheme, storedTheme, THEME_KEY } from "../../../src/hosts/preview/theme.js";
import { PreviewWorkbook } from "../../../src/hosts/preview/workbook.js";
import { DEMO_WORKBOOK } from "../../../src/sandbox/demo-workbook.js";

function memoryStorage(initial: Record<string, string> = {}) {
  const data = new Map(Object.entries(initial));
  return {
    data,
    getItem: (key: string) => data.get(key) ?? null,
    setItem: (key: string, value: string) => void data.set(key, value),
  };
}

const throwing = {
  getItem(): string | null {
    throw new Error("storage is blocked");
  },
  setItem() {
    throw new Error("storage is blocked");
  },
};

describe("the preview's theme memory", () => {
  it("applies the stored theme and stores each change under its one key", () => {
    const storage = memoryStorage({ [THEME_KEY]: "dark" });
    const workbook = new PreviewWorkbook(DEMO_WORKBOOK, []);
    rememberTheme(workbook, storage);
    expect(workbook.getSnapshot().theme).toBe("dark");

    workbook.setTheme("light");
    expect([...storage.data]).toEqual([[THEME_KEY, "light"]]);
    // Other changes store nothing new.
    workbook.selectCell({ col: 2, row: 2 });
    expect([...storage.data]).toEqual([[THEME_KEY, "light"]]);
  });

  it("ignores anything but light or dark, and a storage that throws", () => {
    expect(storedTheme(memoryStorage({ [THEME_KEY]: "solarized" }))).toBeNull();
    expect(storedTheme(undefined)).toBeNull();
    expect(storedTheme(throwing)).toBeNull();

    const workbook = new PreviewWorkbook(DEMO_WORKBOOK, []);
    rememberTheme(workbook, throwing);
    expect(workbook.getSnapshot().theme).toBe("light");
    workbook.setTheme("dark");
    expect(workbook.getSnapshot().theme).toBe("dark");
  });

  it("stops storing once stopped", () => {
    const storage = memoryStorage();
    const workbook = new PreviewWorkbook(DEMO_WORKBOOK, []);
    const stop = rememberTheme(workbook, storage);
    stop();
    workbook.setTheme("dark");
    expect(storage.data.size).toBe(0);
  });
});
