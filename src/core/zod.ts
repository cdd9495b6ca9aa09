/**
 * zod (its mini API) as every schema of the core uses it, configured once, before any schema is
 * built or parsed: jitless. The pages the pane runs in forbid eval (a Content-Security-Policy
 * without 'unsafe-eval'); without this, zod probes `new Function` on its first parse, and although
 * it catches the failure, the browser reports a policy violation. A module of the core may parse
 * while it loads (settings.ts's EMPTY_SETTINGS), in whichever chunk loads it first, so the setting
 * lives with the import rather than in one host's entry.
 */
import { z } from "zod/mini";

z.config({ jitless: true });

export { z };
