/**
 * The preview remembers its light or dark theme across reloads, in localStorage under one key that
 * holds the word "light" or "dark" and nothing else (settings and keys live elsewhere, per tab).
 * A storage that refuses (private modes, blocked storage) only loses the memory, never the page.
 */
import type { PreviewWorkbook } from "./workbook.js";

export const THEME_KEY = "rp-preview:theme";

export type Theme = "light" | "dark";

type ThemeStorage = Pick<Storage, "getItem" | "setItem">;

/** The theme stored last, or null when none (or something else) is stored. */
export function storedTheme(storage: ThemeStorage | undefined): Theme | null {
  try {
    const value = storage?.getItem(THEME_KEY);
    return value === "light" || value === "dark" ? value : null;
  } catch {
    return null;
  }
}

/**
 * Applies the stored theme to the workbook, then stores each change of it. Returns the function that
 * stops storing.
 */
export function rememberTheme(workbook: PreviewWorkbook, storage: ThemeStorage | undefined): () => void {
  const stored = storedTheme(storage);
  if (stored) workbook.setTheme(stored);
  let last = workbook.getSnapshot().theme;
  return workbook.subscribe(() => {
    const theme = workbook.getSnapshot().theme;
    if (theme === last) return;
    last = theme;
    try {
      storage?.setItem(THEME_KEY, theme);
    } catch {
      // Not remembered; the page goes on in the chosen theme.
    }
  });
}
