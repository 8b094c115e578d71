/**
 * Turning what the root reports into the rows' Preparation, and the exact reason when the
 * rows cannot run here. Kept apart from the I/O so it can be tested alone.
 */
import type { Preparation } from "@bench/core";
import { upstreamVersion } from "@bench/core";
import { OTHER_ROWS_TORCH, SEED_PYTHON } from "./pins.ts";

export type Variant = "onnx" | "torch";

export interface NoWheelFacts {
  pin: string;
  /** pip's ERROR: lines. */
  pipError: string[];
  /** "3.14.10 GIL cpython-314" */
  interpreter: string;
  /** pip index versions for cp314t wheels, undefined when none. */
  freeThreadedVersions: string | undefined;
  /** Debian sid packages that would be a free-threaded 3.14 (none so far). */
  freeThreadedPackages: string[];
}

export function noWheelReason(f: NoWheelFacts): string {
  const parts = [
    `turbine-fast==${f.pin} cannot be installed for the sid root's CPython ${f.interpreter}: ${f.pipError.join(" ") || "pip found no matching wheel"}`,
  ];
  parts.push(
    f.freeThreadedVersions
      ? `PyPI's turbine-fast wheels are free-threaded only (cp314-cp314t): ${f.freeThreadedVersions}; none is a standard cp314 wheel, and a cp314t extension does not load on the GIL build`
      : "PyPI offers no turbine-fast wheel for CPython 3.14 at all",
  );
  parts.push(
    f.freeThreadedPackages.length > 0
      ? `Debian sid has ${f.freeThreadedPackages.join(", ")}, which this adapter does not use yet`
      : "No free-threaded CPython 3.14 is reachable here (Debian sid packages python3.14 as the GIL build only; turbine-fast has no sdist)",
  );
  return parts.join(". ");
}

const COMMON_DEVIATIONS = (python: string): string[] => [
  `interpreter: CPython ${python} standard GIL build (Debian sid, in a chroot) started with TURBINE_ALLOW_GIL=1, not the seed's ${SEED_PYTHON}: Turbine's shards (parallelism>1) share one GIL`,
  "Kafka client settings are Turbine's own, hard-coded in its Rust core (fetch, prefetch queue, producer acks/idempotence/compression): the bench sets none of them",
  "consumer group: Turbine names its own (turbine-<app_id>-<topic>-<name>; app_id = the run's group id, name = score), and consumed/s is that group's committed offset",
  "auto.offset.reset: from_earliest=True (Turbine's switch; each run's group is new)",
];

export function preparationFrom(variant: Variant, reported: Record<string, string>, debianTorch: string | undefined): Preparation {
  const wanted = variant === "onnx" ? ["turbine", "onnxruntime", "pyarrow"] : ["turbine", "torch", "pyarrow"];
  const missing = wanted.filter((name) => reported[name] === undefined || reported[name] === "missing");
  if (missing.length > 0) return { ok: false, reason: `missing from the Turbine root's venv: ${missing.join(", ")}` };
  const python = reported.python ?? "unknown";
  const torch = (debianTorch !== undefined ? upstreamVersion(debianTorch) : undefined) ?? reported.torch ?? "missing";
  const versions: Record<string, string> = { turbine: reported.turbine as string, python, pyarrow: reported.pyarrow as string };
  if (variant === "onnx") versions.onnxruntime = reported.onnxruntime as string;
  else versions.torch = torch;
  const deviations = COMMON_DEVIATIONS(python);
  if (variant === "torch") {
    deviations.push(`torch ${torch} (Debian sid's python3-torch, the only torch for Python 3.14 here) where the other Python rows run ${OTHER_ROWS_TORCH}: forced by Turbine's Python 3.14 requirement`);
  } else {
    deviations.push("model: the ONNX export (risk_mlp.onnx) run by Turbine's native infer= operator, not eager torch; infer= appends risk to the handler's batch, so the four float32 feature columns are published too");
  }
  return { ok: true, versions, deviations };
}
