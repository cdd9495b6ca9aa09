// `npm run deploy:sheets` starts here: clasp needs .clasp.json (your script id), which is never
// committed. Say how to make one instead of clasp's "Project settings not found".
import { existsSync, readFileSync } from "node:fs";

if (!existsSync(".clasp.json")) {
  console.error(
    'No .clasp.json in the repository root. Copy .clasp.json.example to .clasp.json and put your Apps Script project\'s id in it, or run `npx clasp create --type sheets --title "Reporting Platform" --rootDir dist/sheets` (docs/google-sheets.md, "Deploy with clasp").',
  );
  process.exit(1);
}
const config = JSON.parse(readFileSync(".clasp.json", "utf8"));
if (config.rootDir !== "dist/sheets") {
  console.error('.clasp.json must say "rootDir": "dist/sheets": that is the built add-on clasp pushes.');
  process.exit(1);
}
if (!/^[A-Za-z0-9_-]{20,}$/.test(String(config.scriptId ?? ""))) {
  console.error(
    ".clasp.json has no script id yet: paste the id of your Apps Script project (Project Settings).",
  );
  process.exit(1);
}
