import type { UserConfig } from "vite";

/** Build settings of the sheets target (see vite.config.ts). */
export function sheetsBuild(): UserConfig {
  return {};
}
