import type { UserConfig } from "vite";

/** Build settings of the excel target (see vite.config.ts). */
export function excelBuild(): UserConfig {
  return {};
}
