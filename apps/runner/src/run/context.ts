/** What every run of a bench shares: the broker, the reference model, where things go, callbacks. */
import type { RuntimeReadings } from "../results/types.ts";
import type { GateRecord, Guarantee, KafkaAdmin, ReferenceModel } from "@bench/core";
import type { Phase, Tick } from "../results/types.ts";
import type { SpeedReadings } from "./speed-index.ts";

export interface BenchContext {
  bootstrap: string;
  /** Every row of this bench runs under it (RunContext.guarantee); the audit reads read-committed either way. */
  guarantee: Guarantee;
  /** The broker's pid when it runs on this machine (its CPU is harness); a broker restart changes it. */
  brokerPid?: number;
  /**
   * Present only when the runner started the broker itself: stop it (SIGKILL or clean), keep it
   * down, start it on the same port and data, and update brokerPid. A user's broker is never touched.
   */
  restartBroker?(how: { hard: boolean; downMs: number }): Promise<{ downAt: number; stoppedAt: number; upAt: number }>;
  /** Served by the bench's own model server: its process trees, sampled beside each row's and added to the row's cost. */
  modelServer?: { rootPids(): number[] };
  /**
   * Present only when the bench started the model server itself: kill -9 of its whole tree, kept
   * down downMs, then started again on the same ports. A user's server (--model-server) is never touched.
   */
  killModelServer?(how: { downMs: number }): Promise<{ killedAt: number; upAt: number }>;
  admin: KafkaAdmin;
  reference: ReferenceModel;
  /** core's native output reader, which the audit reads with; absent: it reads through the JavaScript binding. */
  outputReader?: string;
  /** What the verification gate produces: the generated fixtures, then the spelling cases (loadGateRecords). */
  fixtures: GateRecord[];
  repoRoot: string;
  modelsDir: string;
  cacheDir: string;
  resultsDir: string;
  /** The speed index read when the bench started: every run's readings are compared with it. */
  speedReference: number;
  /** Where runs take their readings before and after (spaced by time); absent: two new readings a run. */
  speedIndex?: SpeedReadings;
  /** The runtime yardstick's readings, spaced by time (yardstick/read.ts' SpacedRuntimes); absent: read afresh each time. */
  runtimes?: { reading(): Promise<RuntimeReadings> };
  log(line: string): void;
  onRunStart?(product: string, rate: number, measuredSeconds: number): void;
  onTick?(product: string, phase: Phase, tick: Tick, perSec: { offered: number; consumed: number }): void;
  onRunEnd?(): void;
  /**
   * Work that must end before anything is timed again: a knee search's audit reads on while the
   * bench prepares, starts and gates the next product (none of which is timed).
   */
  afterwards?(work: Promise<unknown>): void;
  /** Resolves once every `afterwards` work has ended; throws what one threw. */
  quiet?(): Promise<void>;
  /** Set when the user asked the bench to stop (Ctrl-C / SIGTERM). */
  interrupted(): string | undefined;
}
