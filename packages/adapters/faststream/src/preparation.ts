/**
 * Turning what the venv reports into the row's Preparation: the versions the page shows, or the
 * exact reason the row cannot run here. Kept apart from the I/O so it can be tested alone.
 */
import { KAFKA_SETTINGS, type Preparation } from "@bench/core";

/** What start() needs from prepare(): the venv's interpreter. */
export interface Found {
  python: string;
}

const fetch = KAFKA_SETTINGS.consumer;
export const DEVIATIONS = [
  `aiokafka has no prefetch-queue knobs: the shared fetch numbers are set under aiokafka's names (fetch_min_bytes ${fetch["fetch.min.bytes"]}, fetch_max_wait_ms ${fetch["fetch.wait.max.ms"]}, max_partition_fetch_bytes ${fetch["max.partition.fetch.bytes"]}), queued.max.messages.kbytes / queued.min.messages have no equivalent`,
];

/**
 * `reported` is pythonVersions() from the venv ("missing" for an absent distribution);
 * `debianTorch` is the upstream version of Debian's python3-torch, undefined when dpkg does not know it.
 */
export function preparationFrom(reported: Record<string, string>, debianTorch: string | undefined, python: string): Preparation<Found> {
  const missing = Object.entries(reported)
    .filter(([, version]) => version === "missing")
    .map(([name]) => name);
  if (missing.includes("torch")) {
    return { ok: false, reason: "torch is not importable from /usr/bin/python3.11: install Debian's python3-torch (apt-get install python3-torch)" };
  }
  if (missing.length > 0) return { ok: false, reason: `missing from the FastStream venv: ${missing.join(", ")}` };
  const torch = debianTorch ?? (reported.torch as string);
  return { ok: true, versions: { ...reported, torch }, deviations: DEVIATIONS, found: { python } };
}
