/**
 * Building the Rust app: `cargo build --release --locked` with CARGO_TARGET_DIR in the row's
 * cache folder (the crates and librdkafka compiled there once and reused), the binary copied
 * into a folder keyed by a hash of the compiler and the app's files, so an edit rebuilds only
 * the app and an unchanged app is never built twice.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";

export const APP_DIR = join(import.meta.dirname, "..", "app");
export const BINARY = "rust-row";

/** The files that shape the binary, relative to the app folder, sorted: the manifest, the lock, cargo's config, the sources. */
export function appFiles(appDir: string): string[] {
  const sources = (readdirSync(join(appDir, "src"), { recursive: true }) as string[]).filter((f) => f.endsWith(".rs")).map((f) => join("src", f));
  return ["Cargo.toml", "Cargo.lock", join(".cargo", "config.toml"), ...sources].sort();
}

/** 16 hex digits over the compiler's version and each file's path and text. */
export function buildKey(rustc: string, files: ReadonlyArray<{ path: string; text: string }>): string {
  const hash = createHash("sha256").update(`${rustc}\n`);
  for (const f of files) hash.update(`${f.path}\0${f.text}\0`);
  return hash.digest("hex").slice(0, 16);
}

/** The build's command line: the lock is the law, so a build never resolves other versions. */
export function cargoBuildCommand(appDir: string, targetDir: string): { command: string; args: string[]; cwd: string; env: Record<string, string> } {
  return { command: "cargo", args: ["build", "--release", "--locked"], cwd: appDir, env: { CARGO_TARGET_DIR: targetDir } };
}

export async function buildApp(cacheDir: string, rustc: string, log: (line: string) => void, appDir = APP_DIR): Promise<string> {
  const key = buildKey(rustc, appFiles(appDir).map((path) => ({ path, text: readFileSync(join(appDir, path), "utf8") })));
  const binDir = join(cacheDir, `app-${key}`);
  const binary = join(binDir, BINARY);
  if (existsSync(binary)) return binary;
  const build = cargoBuildCommand(appDir, join(cacheDir, "target"));
  log(`building the Rust app (${build.command} ${build.args.join(" ")}; the first build compiles librdkafka, about a minute or more)`);
  const started = Date.now();
  const result = await execa(build.command, build.args, { cwd: build.cwd, env: build.env, reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(`cargo build failed (exit ${result.exitCode}):\n${String(result.all ?? "").split("\n").slice(-30).join("\n")}`);
  log(`built the Rust app in ${Math.round((Date.now() - started) / 1000)} s`);
  // Copied beside the final folder and renamed into place: a half-copied binary is never taken as built.
  const building = `${binDir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  copyFileSync(join(build.env.CARGO_TARGET_DIR as string, "release", BINARY), join(building, BINARY));
  rmSync(binDir, { recursive: true, force: true });
  renameSync(building, binDir);
  return binary;
}
