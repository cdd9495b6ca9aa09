/**
 * Excel's theme as the pane's "light" or "dark": read from `Office.context.officeTheme`, whose body
 * background is dark in Office's Black and Dark Gray themes.
 */
import type { OfficeApi } from "./office.js";

/** "#RRGGBB" or "#RGB" (the leading # optional) as [r, g, b], or null. */
function parseHexColor(text: string): [number, number, number] | null {
  const hex = text.trim().replace(/^#/, "");
  const full = /^[0-9a-f]{3}$/i.test(hex) ? [...hex].map((c) => c + c).join("") : hex;
  if (!/^[0-9a-f]{6}$/i.test(full)) return null;
  return [0, 2, 4].map((i) => Number.parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

/** WCAG relative luminance, 0 (black) to 1 (white). */
function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function themeFromBackground(color: string | null | undefined): "light" | "dark" {
  const rgb = color ? parseHexColor(color) : null;
  if (!rgb) return "light";
  // Mid-grey (#767676) has luminance ~0.18: anything darker reads as a dark theme.
  return luminance(rgb) < 0.18 ? "dark" : "light";
}

export function officeTheme(office: OfficeApi): "light" | "dark" {
  return themeFromBackground(office.context.officeTheme?.bodyBackgroundColor);
}
