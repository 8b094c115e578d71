// The apt packages the adapters declare (package.json "bench": { "apt": [...] }), one a line,
// each once: setup.sh installs them beside the bench's own. Plain Node, no dependencies, because
// setup runs it before `pnpm install`.
//   node scripts/declared-apt.mjs [adapters folder]
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const adapters = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), "..", "packages", "adapters");
const packages = new Set();
for (const folder of readdirSync(adapters).sort()) {
  const manifest = join(adapters, folder, "package.json");
  if (!existsSync(manifest)) continue;
  const apt = JSON.parse(readFileSync(manifest, "utf8")).bench?.apt ?? [];
  if (!Array.isArray(apt) || apt.some((p) => typeof p !== "string")) throw new Error(`${manifest}: bench.apt must be a list of package names`);
  for (const p of apt) packages.add(p);
}
for (const p of [...packages].sort()) console.log(p);
