/**
 * What each adapter folder declares it needs from the machine, in its package.json:
 * `"bench": { "apt": [...], "env": [...] }`. setup.sh installs the apt packages
 * (scripts/declared-apt.mjs), the adapter's turbo.json passes the variables to its tests, and the
 * doctor shows which of the variables are set.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface Declared {
  folder: string;
  packageName: string;
  apt: string[];
  env: string[];
}

const names = (value: unknown, what: string): string[] => {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) throw new Error(`${what} must be a list of names`);
  return value as string[];
};

/** Every adapter folder in `dir` (one with a package.json), in folder order. */
export function readDeclared(dir: string): Declared[] {
  return readdirSync(dir)
    .sort()
    .filter((folder) => existsSync(join(dir, folder, "package.json")))
    .map((folder) => {
      const manifest = join(dir, folder, "package.json");
      const pkg = JSON.parse(readFileSync(manifest, "utf8")) as { name: string; bench?: { apt?: unknown; env?: unknown } };
      return { folder, packageName: pkg.name, apt: names(pkg.bench?.apt, `${manifest}: bench.apt`), env: names(pkg.bench?.env, `${manifest}: bench.env`) };
    });
}

/** The doctor's lines for the variables the adapters read: set or not, per adapter. */
export function formatDeclaredEnv(declared: readonly Declared[], env: NodeJS.ProcessEnv): string {
  const rows = declared.flatMap((d) => d.env.map((name) => [d.folder, name, env[name]?.trim() ? `set: ${env[name]!.trim()}` : "unset"]));
  if (rows.length === 0) return "";
  const widths = [0, 1].map((i) => Math.max(...rows.map((r) => r[i]!.length), i === 0 ? "adapter".length : "variable".length));
  const line = (r: string[]): string => `${r[0]!.padEnd(widths[0]!)}  ${r[1]!.padEnd(widths[1]!)}  ${r[2]}`.trimEnd();
  return [
    "",
    "Environment variables the adapters read (each declared in its package.json \"bench\".env):",
    line(["adapter", "variable", "value"]),
    ...rows.map(line),
  ].join("\n") + "\n";
}
