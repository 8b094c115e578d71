/**
 * What the native row is built from: the crates are pinned in app/Cargo.toml and app/Cargo.lock
 * (read here for the page's versions), ONNX Runtime's library comes from the onnxruntime PyPI
 * wheel core pins (its version must match ort's api feature: api-31 for ONNX Runtime 1.31).
 */
import { ONNXRUNTIME_WHEEL_VERSION } from "@bench/core";

export const ONNXRUNTIME_VERSION = ONNXRUNTIME_WHEEL_VERSION;
/** ort 2.0.0-rc.15 declares rust-version 1.92. */
export const MIN_RUSTC = [1, 92] as const;

/** The page's label for each crate shown in the row's versions. */
export const VERSIONED_CRATES: Readonly<Record<string, string>> = { rdkafka: "rdkafka", ort: "ort", "sonic-rs": "sonic-rs" };

/** Each [[package]]'s version in a Cargo.lock, by crate name (the first one when a name repeats). */
export function lockedVersions(lockText: string): Map<string, string> {
  const versions = new Map<string, string>();
  for (const block of lockText.split("[[package]]")) {
    const name = /^name = "([^"]+)"$/m.exec(block)?.[1];
    const version = /^version = "([^"]+)"$/m.exec(block)?.[1];
    if (name && version && !versions.has(name)) versions.set(name, version);
  }
  return versions;
}

/** The librdkafka rdkafka-sys vendors, from its version's build metadata ("4.10.0+2.12.1"). */
export function vendoredLibrdkafka(rdkafkaSysVersion: string): string | undefined {
  return /\+(\d+\.\d+\.\d+)$/.exec(rdkafkaSysVersion)?.[1];
}

/** The row's crate versions and librdkafka's, as the page shows them. */
export function crateVersions(lockText: string): Record<string, string> {
  const locked = lockedVersions(lockText);
  const versions: Record<string, string> = {};
  for (const [label, crate] of Object.entries(VERSIONED_CRATES)) versions[label] = locked.get(crate) ?? "missing";
  versions.librdkafka = vendoredLibrdkafka(locked.get("rdkafka-sys") ?? "") ?? "missing";
  return versions;
}
