/** Building the Rust app with core's cargo build (cargo-build.ts), its binary cached by a hash of the compiler and the app's files. */
import { join } from "node:path";
import { buildCrate, type CargoCrate } from "@bench/core";

export const APP_DIR = join(import.meta.dirname, "..", "app");
export const BINARY = "rust-row";

export function buildApp(cacheDir: string, rustc: string, log: (line: string) => void, appDir = APP_DIR): Promise<string> {
  const crate: CargoCrate = { crateDir: appDir, binary: BINARY, what: "the Rust app" };
  return buildCrate(crate, cacheDir, rustc, log);
}
