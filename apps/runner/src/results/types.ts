/** The results file a run writes and the page renders from: raw samples, derived row, context. */
import type { MemoryInstrument, RowDescription } from "@bench/core";

export type Regime = "keep-up" | "saturated" | "draining";
export type Phase = "verify" | "warmup" | "window" | "drain";

/** One tick of the run: cumulative counters and the product tree's resources. */
export interface Tick {
  t: number;
  phase: Phase;
  /** Input topic high watermark: records the broker holds (offered so far). */
  inputEnd: number;
  /** Records the product has consumed (group offset or engine counter). */
  consumed: number;
  outputEnd: number;
  cpuPercent: number;
  memMb: number;
  processes: number;
  instrument: MemoryInstrument;
}

export interface ThroughputRow {
  offeredPerSec: number;
  consumedPerSec: number;
  regime: Regime;
  /** Backlog change over the window divided by records consumed in it. */
  lagDrift: number;
  cpuAvg: number;
  rowsPerCore: number;
  rowsPerGb: number;
  cpuMicrosPerInference: number;
  outputPerSec: number;
  extraRecordsPerRecord: number;
}

export interface ResourceRow {
  cpuAvg: number;
  cpuP95: number;
  memAvgMb: number;
  memMaxMb: number;
  samples: number;
  instrument: MemoryInstrument;
}

export interface VerificationResult {
  passed: boolean;
  checked: number;
  maxError: number;
  /** Why it failed, when it did. */
  problem?: string;
}

export interface DeliveryCheck {
  produced: number;
  distinctOutputs: number;
  lost: number;
  duplicated: number;
  scoresChecked: number;
  maxScoreError: number;
  /** End-to-end ms (input ts_ms -> output broker timestamp) over the window's records. */
  latencyMs?: { p50: number; p99: number; max: number; count: number };
}

export interface HarnessCost {
  samplerCpuPercent: number;
  runnerCpuPercent: number;
  gendataCpuPercent: number;
  brokerCpuPercent: number;
}

export interface RunResult {
  product: string;
  /** Set on the runs of a sweep: why this rate was run. */
  sweepPurpose?: "climb" | "refine" | "confirm";
  status: "ok" | "failed" | "skipped";
  /** Why a row failed or was skipped (with the product's log tail when it crashed). */
  reason?: string;
  startedAt: string;
  settings: { offeredRate: number; warmupSec: number; windowSec: number; parallelism: number; seed: number };
  row: RowDescription;
  versions: Record<string, string>;
  deviations: string[];
  notes: string[];
  consumedSource: string;
  verification?: VerificationResult;
  throughput?: ThroughputRow;
  resources?: ResourceRow;
  selectivity?: number;
  delivery?: DeliveryCheck;
  harness?: HarnessCost;
  gendataWarnings: string[];
  ticks: Tick[];
}

export interface HostInfo {
  cpu: string;
  cores: number;
  threads: number;
  memoryMb: number;
  kernel: string;
  os: string;
}

/** A product's knee search: its outcome; each step is also a run in `runs`. */
export interface SweepRecord {
  product: string;
  knee?: number;
  ceiling?: number;
  confirmed: boolean;
  stoppedBecause: string;
  steps: Array<{ rate: number; purpose: "climb" | "refine" | "confirm"; offeredPerSec: number; consumedPerSec: number; regime?: Regime; lagDrift?: number; cpuAvg?: number; failed?: string; gendataShort: boolean }>;
}

export interface BenchResults {
  schema: 1;
  generatedAt: string;
  host: HostInfo;
  broker: { name: string; version: string; bootstrap: string; startedByRunner: boolean };
  runs: RunResult[];
  sweeps?: SweepRecord[];
}
