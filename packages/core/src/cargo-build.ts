/**
 * Building a Rust crate of the repository (the Rust row's app, the audit's output reader):
 * `cargo build --release --locked` with CARGO_TARGET_DIR in a cache folder (the crates and
 * librdkafka compiled there once and reused), the binary copied into a folder keyed by a hash of
 * the compiler and the crate's files, so an edit rebuilds only the crate and an unchanged crate
 * is never built twice.
 */
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";

/** The files that shape the binary, relative to the crate's folder, sorted: the manifest, the lock, cargo's config, the sources. */
export function crateFiles(crateDir: string): string[] {
  const sources = (readdirSync(join(crateDir, "src"), { recursive: true }) as string[]).filter((f) => f.endsWith(".rs")).map((f) => join("src", f));
  return ["Cargo.toml", "Cargo.lock", join(".cargo", "config.toml"), ...sources].sort();
}

/** 16 hex digits over the compiler's version and each file's path and text. */
export function buildKey(rustc: string, files: ReadonlyArray<{ path: string; text: string }>): string {
  const hash = createHash("sha256").update(`${rustc}\n`);
  for (const f of files) hash.update(`${f.path}\0${f.text}\0`);
  return hash.digest("hex").slice(0, 16);
}

/** The build's command line: the lock is the law, so a build never resolves other versions. */
export function cargoBuildCommand(crateDir: string, targetDir: string): { command: string; args: string[]; cwd: string; env: Record<string, string> } {
  return { command: "cargo", args: ["build", "--release", "--locked"], cwd: crateDir, env: { CARGO_TARGET_DIR: targetDir } };
}

export interface CargoCrate {
  crateDir: string;
  /** The binary's name in target/release. */
  binary: string;
  /** What the log calls it: "the Rust app". */
  what: string;
}

/** The crate's binary, built into `cacheDir` unless a build of the same files and compiler is there. */
export async function buildCrate(crate: CargoCrate, cacheDir: string, rustc: string, log: (line: string) => void): Promise<string> {
  const key = buildKey(
    rustc,
    crateFiles(crate.crateDir).map((path) => ({ path, text: existsSync(join(crate.crateDir, path)) ? readFileSync(join(crate.crateDir, path), "utf8") : "" })),
  );
  const binDir = join(cacheDir, `app-${key}`);
  const binary = join(binDir, crate.binary);
  if (existsSync(binary)) return binary;
  const build = cargoBuildCommand(crate.crateDir, join(cacheDir, "target"));
  log(`building ${crate.what} (${build.command} ${build.args.join(" ")}; the first build compiles librdkafka, about a minute or more)`);
  const started = Date.now();
  const result = await execa(build.command, build.args, { cwd: build.cwd, env: build.env, reject: false, all: true });
  if (result.exitCode !== 0) throw new Error(
    `cargo build of ${crate.what} failed (exit ${result.exitCode ?? result.signal}):\n${String(result.all ?? "").split("\n").slice(-30).join("\n")}`,
  );
  log(`built ${crate.what} in ${Math.round((Date.now() - started) / 1000)} s`);
  // Copied beside the final folder and renamed into place: a half-copied binary is never taken as built.
  const building = `${binDir}.building-${process.pid}`;
  rmSync(building, { recursive: true, force: true });
  mkdirSync(building, { recursive: true });
  copyFileSync(join(build.env.CARGO_TARGET_DIR as string, "release", crate.binary), join(building, crate.binary));
  rmSync(binDir, { recursive: true, force: true });
  renameSync(building, binDir);
  return binary;
}

/** `rustc --version`, or undefined when there is none. */
export async function rustcVersion(): Promise<string | undefined> {
  const r = await execa("rustc", ["--version"], { reject: false });
  return r.exitCode === 0 ? r.stdout.trim() : undefined;
}
