/**
 * Turning what the venv reports into the rows' Preparation. Kept apart from the I/O so it can
 * be tested alone.
 */
import type { Preparation } from "@bench/core";
import { MIN_ONNXRUNTIME, OTHER_ROWS_TORCH } from "./pins.ts";

export type Variant = "onnx" | "torch";

const COMMON_DEVIATIONS = [
  "Kafka client settings are Turbine's own, hard-coded in its Rust core (fetch, prefetch queue, producer acks/idempotence/compression): the bench sets none " +
    "of them",
  "consumer group: Turbine names its own (turbine-<app_id>-<topic>-<name>; app_id = the run's group id, name = score), and consumed/s is that group's " +
    "committed offset",
  "auto.offset.reset: from_earliest=True (Turbine's switch; each run's group is new)",
];

/** "1.32.0" >= "1.27" by numeric parts. */
export function atLeast(version: string, minimum: string): boolean {
  const a = version.split(".").map((p) => Number.parseInt(p, 10));
  const b = minimum.split(".").map((p) => Number.parseInt(p, 10));
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? 0;
    const y = b[i] ?? 0;
    if (Number.isNaN(x) || Number.isNaN(y)) return false;
    if (x !== y) return x > y;
  }
  return true;
}

/** What start() needs from prepare(): the row's venv interpreter. */
export interface Found {
  python: string;
}

export function preparationFrom(variant: Variant, reported: Record<string, string>, python: string): Preparation<Found> {
  const wanted = variant === "onnx" ? ["turbine", "onnxruntime", "pyarrow"] : ["turbine", "torch", "pyarrow"];
  const missing = wanted.filter((name) => reported[name] === undefined || reported[name] === "missing");
  if (missing.length > 0) return { ok: false, reason: `missing from the Turbine venv: ${missing.join(", ")}` };
  const versions: Record<string, string> = { turbine: reported.turbine as string, python: reported.python ?? "unknown", pyarrow: reported.pyarrow as string };
  const deviations = [...COMMON_DEVIATIONS];
  if (variant === "onnx") {
    const ort = reported.onnxruntime as string;
    if (!atLeast(ort, MIN_ONNXRUNTIME)) {
      return {
        ok: false,
        reason: `onnxruntime ${ort} in the Turbine venv: Turbine's compiled core needs the ONNX Runtime library at ${MIN_ONNXRUNTIME} or newer`,
      };
    }
    versions.onnxruntime = ort;
    deviations.push(
      "model: the ONNX export (risk_mlp.onnx) run by Turbine's native infer= operator, not eager torch; infer= appends risk to the handler's batch, so the " +
        "four float32 feature columns are published too",
    );
  } else {
    versions.torch = reported.torch as string;
    deviations.push(
      `torch ${versions.torch} (the newest with free-threaded 3.14 wheels) where the other Python rows run ${OTHER_ROWS_TORCH}: forced by Turbine's Python ` +
        `3.14 requirement`,
    );
  }
  return { ok: true, versions, deviations, found: { python } };
}
