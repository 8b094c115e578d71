/**
 * What every runtime's probe shares: the records it works on (the speed index's own, one JSON
 * line each, so that every runtime decodes the same bytes) and the reading itself: several fresh
 * processes one after another, each timing repetitions with its runtime's CPU-time clock; a
 * process's figure is its median repetition and the reading is the median process, as the V8
 * index reads its isolates.
 */
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { makeTemplate } from "@bench/core";
import { median } from "../metrics/stats.ts";
import type { RuntimeReading } from "../results/types.ts";
import { YARDSTICK_VERSION } from "./runtimes.ts";

const POOL = 1024;

/** The 19-field records, as the speed index builds them, one JSON document per line. */
export function yardstickRecords(): string {
  return Array.from({ length: POOL }, (_, i) => JSON.stringify({ event_id: `speed-${i}`, ts_ms: i, ...makeTemplate(7, i) })).join("\n") + "\n";
}

/** The records file in the yardstick's cache folder, written once (whole, then renamed into place). */
export function recordsFile(dir: string): string {
  const file = join(dir, `records-v${YARDSTICK_VERSION}.jsonl`);
  if (existsSync(file)) return file;
  mkdirSync(dir, { recursive: true });
  const partial = `${file}.${process.pid}`;
  writeFileSync(partial, yardstickRecords());
  renameSync(partial, file);
  return file;
}

/** What one probe process prints on its last line. */
export interface ProcessOutput {
  cpuNanos: number[];
  checksum: number;
  runtime: string;
}

/** Records per CPU-second of a process's median repetition (repetitions of no measurable CPU are left out). */
export function processIndex(recordsPerRep: number, cpuNanos: readonly number[]): number {
  const timed = cpuNanos.filter((ns) => ns > 0);
  return timed.length === 0 ? 0 : recordsPerRep / (median(timed) / 1e9);
}

/** The reading from its processes' outputs; processes that did different work (checksums differ) are an error, not a reading. */
export function readingOf(recordsPerRep: number, outputs: readonly ProcessOutput[]): RuntimeReading {
  const [first] = outputs;
  if (!first) throw new Error("no probe process ran");
  if (outputs.some((o) => o.checksum !== first.checksum)) throw new Error(
    `probe processes disagree on the checksum: ${outputs.map((o) => o.checksum).join(", ")}`,
  );
  const processes = outputs.map((o) => processIndex(recordsPerRep, o.cpuNanos));
  return { recordsPerCpuSecond: median(processes), processes, checksum: first.checksum, runtime: first.runtime, version: YARDSTICK_VERSION };
}

/** Runs `command args` `count` times one after another and parses each one's last line. */
export async function runProcesses(command: string, args: readonly string[], count: number): Promise<ProcessOutput[]> {
  const outputs: ProcessOutput[] = [];
  for (let i = 0; i < count; i++) {
    const result = await execa(command, args, { reject: false, all: true });
    const last = result.stdout.trim().split("\n").pop() ?? "";
    if (result.exitCode !== 0 || !last.startsWith("{")) throw new Error(
      `${command} exited ${result.exitCode}: ${String(result.all ?? "").split("\n").slice(-5).join("\n")}`,
    );
    outputs.push(JSON.parse(last) as ProcessOutput);
  }
  return outputs;
}
