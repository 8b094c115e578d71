/** The results file a run writes and the page renders from: raw samples, derived row, context. */

import type { BadOutput, Guarantee, KafkaSettings, MemoryInstrument, ModelHost, ProfileCategory, RowDescription } from "@bench/core";
import type { FaultTally } from "../faults/tally.ts";
import type { ServingRecord } from "../serving/target.ts";

export type Regime = "keep-up" | "saturated" | "draining";
/**
 * settle: from gendata's start until the backlog has settled (or the cap); then the measured
 * window. "warmup" (a fixed discarded span) appears only in schema-1 files.
 */
export type Phase = "verify" | "warmup" | "settle" | "window" | "profile" | "drain";

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
  /** CPU of every process that is neither the product's tree nor the harness (runner, gendata, broker), 100 = one core. */
  foreignCpuPercent?: number;
  /** Steal time from /proc/stat over the tick, 100 = one core. */
  stealPercent?: number;
  /**
   * Served by the bench's own model server: the server's share of this tick's cpuPercent and memMb,
   * which hold the row and the server together (the row's cost). Absent: embedded, or a user's server.
   */
  server?: { cpuPercent: number; memMb: number };
  /**
   * The broker did not answer this tick's offset reads (a broker restart): the offsets are the
   * previous tick's, carried over, and no rate is read from this tick.
   */
  noReading?: true;
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
  /** Fixture records the gate produced (generated and spelling cases); absent in results from before the spelling cases (256). */
  fixtures?: number;
  maxError: number;
  /** Why it failed, when it did. */
  problem?: string;
  /** Spelling cases the row declared a finding for (its notes say which and why), and was held to. */
  declared?: string[];
}

export interface DeliveryCheck {
  produced: number;
  distinctOutputs: number;
  lost: number;
  duplicated: number;
  scoresChecked: number;
  /** Checked outputs whose risk is missing, not a number, or off the reference by more than the card's tolerance. */
  misScored?: number;
  maxScoreError: number;
  /** End-to-end ms (input ts_ms -> output broker timestamp) over the window's records. */
  latencyMs?: { p50: number; p99: number; max: number; count: number };
  /**
   * Outputs the audit could not use: not UTF-8 JSON, no event_id, no numeric risk (a scoring
   * row) or an event_id never produced (absent in results from before it counted them, when
   * such an output aborted the run or, for an unknown id, counted as a duplicate).
   */
  badOutputs?: number;
  /** The first few of them: offset, why, first bytes. */
  badOutputSamples?: BadOutput[];
  /**
   * A drain run stopped once its figure was known, its backlog not worked off: the records with
   * seq below this (its committed prefix) were held to done (lost counts among them); the outputs
   * past it were still checked (bad outputs, scores, duplicates). Absent: every produced record.
   */
  heldTo?: number;
  /** A paced session's audit: the latency of each later step's window (latencyMs is the first's). */
  latencyByWindow?: Array<DeliveryCheck["latencyMs"]>;
  /** Records in the input the bench did not write: reported as foreign, never counted as lost. */
  foreign?: ForeignRecords;
  /** Exactly-once: a transaction open when the audit came to read (run/audit-transaction.ts). */
  openTransaction?: OpenTransaction;
  /**
   * Records of the bench's that a transaction still open past the bound kept from the reader: not
   * read, so not known to be lost (lost does not count them).
   */
  unreadBehindOpenTransaction?: number;
}

/** Records in a row's input the bench did not write (run/audit-foreign.ts): not the bench's, so never lost. */
export interface ForeignRecords {
  count: number;
  /** The first few offsets, in order. */
  offsets: number[];
  /** Of them, not a JSON object with an event_id. */
  malformed: number;
}

/** A transaction that held the output's last stable offset back when the audit came to read it. */
export interface OpenTransaction {
  /** Its producer, as the broker describes it (absent when the broker's description failed). */
  producerId?: number;
  /** Its first offset: the last stable offset while it stays open. */
  firstOffset: number;
  /** Offsets behind it (its own records, and any committed after it) when the audit met it, or when the wait ended. */
  recordsBehind: number;
  /** It ended (committed or aborted) within the bound, and the audit read past it. */
  ended: boolean;
  /** How long the audit waited for it. */
  waitedSec: number;
}

export interface HarnessCost {
  samplerCpuPercent: number;
  runnerCpuPercent: number;
  gendataCpuPercent: number;
  brokerCpuPercent: number;
}

/**
 * How quiet and how fast the machine was around a run. A run is noisy when any `noisyBecause`
 * entry is set; thresholds live in `run/judge.ts`.
 */
export interface RunConditions {
  /** Speed index (reference records per CPU-second) just before gendata started and just after the run. */
  speedIndexBefore: number;
  speedIndexAfter: number;
  /** The bench's own reading at its start, which the run was judged against (older files: the file's). */
  speedIndexReference?: number;
  /** Which speed index read them (`run/speed-index.ts` SPEED_INDEX_VERSION); absent in older files: 1, not comparable with 2. */
  speedIndexVersion?: number;
  /** Average over the window, 100 = one core. */
  foreignCpuAvg: number;
  foreignCpuMax: number;
  stealAvg: number;
  noisy: boolean;
  noisyBecause: string[];
}

/**
 * ok: measured and valid. invalid: it ran, but did not do the work (failed verification,
 * mis-scored or lost records, a backlog that never drained): shown with a mark, never a result.
 * failed: crashed, hung or would not start. skipped: cannot run on this machine (reason says why).
 */
export type RunStatus = "ok" | "invalid" | "failed" | "skipped";

export interface RunResult {
  product: string;
  /**
   * The product's family when it names one (`Product.family`): the page labels the row with
   * `versions[family]` when `versions[product]` is absent. Results written before runs kept it
   * have none; the page then takes the versions entry whose name prefixes the id.
   */
  family?: string;
  /** A reference row that republishes without scoring (Product.passthrough): the ceiling, not a contender. */
  passthrough?: boolean;
  /** The row is the plain-client floor of this runtime (Product.floorFor): the page's "what the framework adds" subtracts it. */
  floorFor?: string;
  /** Set on the runs of a sweep: why this rate was run (drain and paced: the fast search, sweep/run-fast.ts; round: a round at the knee, rounds/). */
  sweepPurpose?: "climb" | "refine" | "confirm" | "drain" | "paced" | "round";
  /** The round this run is the row's window in (rounds/standing.ts). */
  round?: number;
  /**
   * A round's rate as a share of the row's knee (rounds/load-share.ts): the sitting's load share for
   * the windows the ranking reads, 1 for a window at the knee beside it (`--also-at-knee`). Absent:
   * results from before the load share, whose rounds ran at the knee.
   */
  loadShare?: number;
  /** A drain's backlog: generated records gendata wrote as fast as it could, timed; with a refill, the fill whose window counts. */
  prefill?: PrefillRecord;
  /** A drain that refilled: the other fill, whose window became settle ticks; the input holds the fixtures and both fills. */
  uncountedFill?: PrefillRecord;
  /** The fill's probe (drain-step.ts), when the row worked it off as it came and gendata then filled at full speed: its records came first. */
  probeFill?: PrefillRecord;
  status: RunStatus;
  /** Why a row failed, was invalid or was skipped (with the product's log tail when it crashed). */
  reason?: string;
  /** False when the backlog had not settled by the cap and the window began anyway: never a knee. */
  settled?: boolean;
  /** Seconds from gendata's start to the window's start. */
  settleSec?: number;
  /** The product's cold start worked off in this session before this step, unmeasured (PacedSession.warmUp). */
  warmUp?: { rate: number; seconds: number };
  conditions?: RunConditions;
  startedAt: string;
  settings: { offeredRate: number; warmupSec: number; windowSec: number; parallelism: number; seed: number };
  row: RowDescription;
  versions: Record<string, string>;
  deviations: string[];
  notes: string[];
  /** The shared Kafka client settings the run handed the product (core's KAFKA_SETTINGS then); absent in older files. */
  kafka?: KafkaSettings;
  consumedSource: string;
  /** What measured the product's work outside its local process trees (RunningProduct.remoteResources), added to /proc's figures; absent: /proc alone. */
  remoteResources?: string;
  verification?: VerificationResult;
  throughput?: ThroughputRow;
  resources?: ResourceRow;
  selectivity?: number;
  delivery?: DeliveryCheck;
  harness?: HarnessCost;
  gendataWarnings: string[];
  ticks: Tick[];
  /** `--profile`: where the CPU went, from a profiling window after the measured one. */
  profile?: ProfileResult;
  /** The runtime yardstick's readings beside the speed index's (V8's stay in `conditions`); absent in older files. */
  yardstick?: RunYardstick;
}

/** The runtimes a row's CPU goes to, each with its own yardstick (`yardstick/`); native code is read by V8's. */
export type YardstickRuntime = "v8" | "cpython" | "jvm" | "native";

/** One runtime's yardstick reading: reference records per CPU-second of one core. */
export interface RuntimeReading {
  /** The median over fresh processes of each one's median repetition. */
  recordsPerCpuSecond: number;
  /** Each fresh process's figure, for the record. */
  processes: number[];
  /** Proves every process did the same work. */
  checksum: number;
  /** What ran it, e.g. "python 3.11.2, orjson 3.13.0". */
  runtime: string;
  /** The workload's version (`yardstick/runtimes.ts` YARDSTICK_VERSION): readings of two versions are not comparable. */
  version: number;
}

/** The yardstick readings of the runtimes besides V8, taken where the speed index is. */
export interface RuntimeReadings {
  cpython?: RuntimeReading;
  jvm?: RuntimeReading;
  /** Why a runtime has no reading (its probe could not be built or run). */
  missing?: Partial<Record<"cpython" | "jvm", string>>;
}

/** Which share of a row's CPU each runtime takes, and where that came from. */
export interface RuntimeMix {
  shares: Partial<Record<YardstickRuntime, number>>;
  /** profile: this run's per-process and per-thread CPU; declared: the row's table entry, not measured in this run. */
  source: "profile" | "declared";
}

export interface RunYardstick {
  before: RuntimeReadings;
  after: RuntimeReadings;
  /** The mix the run was normalised by when it was written (absent: the row declares none, V8's index read it). */
  mix?: RuntimeMix;
}

export interface ProfiledProcess {
  pid: number;
  /** The executable's name: python3.11, java, node. */
  exe: string;
  command: string;
  /** "stages": the app's own BENCH_STAGES timings (a native row), not a sampling profiler. */
  profiler: "py-spy" | "v8" | "jfr" | "stages" | "none";
  /** This process's CPU over the profiling window, 100 = one core. */
  cpuPercent: number;
  samples: number;
  /** CPU per thread name (threads of one name summed), 100 = one core: what thread rules were applied to. */
  threads?: Array<{ name: string; cpuPercent: number }>;
  error?: string;
}

/**
 * A row's CPU breakdown: each process's CPU from /proc (per thread) split by its profiler's
 * classified samples. Shares sum to 1 over every category, "other" included.
 */
export interface ProfileResult {
  seconds: number;
  consumedPerSec: number;
  /** The product tree's CPU over the profiling window, 100 = one core. */
  cpuAvg: number;
  shares: Record<ProfileCategory, number>;
  /** CPU µs per consumed record in each category (they add up to the profiled µs per record). */
  microsPerRecord: Record<ProfileCategory, number>;
  processes: ProfiledProcess[];
  overhead: {
    /** The profilers' own processes (py-spy, jcmd/jfr, the inspector client), 100 = one core. */
    profilerCpuPercent: number;
    /** The tree's µs CPU per record in the measured window and under the profiler. */
    cpuMicrosPerRecordWindow: number;
    cpuMicrosPerRecordProfiled: number;
  };
  /** Relative to the results folder: a speedscope JSON per row and the collapsed stacks. */
  files?: { speedscope: string; collapsed: string };
  /** Set when the profile could not be taken (the run's figures stand). */
  error?: string;
}

export interface HostInfo {
  cpu: string;
  /** /proc/cpuinfo's family, model and stepping (absent in older files). */
  cpuId?: string;
  /** The CPU's vector extensions among those runtimes dispatch on (absent in older files). */
  simd?: string;
  cores: number;
  threads: number;
  memoryMb: number;
  kernel: string;
  os: string;
}

/** gendata filling a drain's input topic as fast as it can: alone before the product started (older results), or beside the running product. */
export interface PrefillRecord {
  records: number;
  seconds: number;
  ratePerSec: number;
  /** gendata's own CPU while it filled, 100 = one core. */
  gendataCpuPercent: number;
  /** Filled beside the running product, and why the fill stopped (metrics/drain-window.ts' fillVerdict); absent: filled alone. */
  besideProduct?: "filled" | "outpaced" | "cap";
  /** A second fill, sized by the first drain's rate: the first backlog ran low before the window's figure was known. */
  refill?: boolean;
}

/** The rounds at the knees: the budget they were planned in and how it was spent. */
export interface RoundsRecord {
  /** `--budget`: seconds for the whole measurement (knee searches and rounds), products' preparation not counted. */
  budgetSec: number;
  /** Seconds the searches and rounds took, preparation not counted. */
  spentSec: number;
  /** Seconds products spent being prepared (first-time installs and builds): set-up, outside the budget. */
  prepareSec: number;
  /** The rows in the order their knees were searched; absent: round 1 was a window in each search's own session, and `order[0]` is the searches'. */
  searchOrder?: string[];
  /** Each round's rows in the order they ran. */
  order: string[][];
  /** Why no further round ran. */
  stoppedBecause: string;
  /** Rows whose rounds fell behind at their rate and moved down (rounds/knee-moves.ts); absent: none did. */
  moves?: KneeMove[];
  /** The share of each row's knee its ranked rounds ran at (rounds/load-share.ts); absent: at the knee (older results). */
  loadShare?: number;
  /** Every round also measured one window at the knee after the one at the load share (`--also-at-knee`). */
  alsoAtKnee?: boolean;
  /** The rounds every row ran whatever the budget said (rounds/run-rounds.ts' ALWAYS_ROUNDS), a make-up round after them; absent: older results. */
  alwaysRounds?: number;
}

/** The model a results file's rows ran (results/model.ts). */
export interface ModelRecord {
  name: string;
  hidden: number[];
  multiplyAddsPerRecord: number;
  weightsSha256: string;
}

/** A row's knee moved down after a round: at `from` it had fallen behind in as many rounds as it kept up in. */
export interface KneeMove {
  product: string;
  /** The round after which it moved. */
  afterRound: number;
  /** The share of the knee the rounds ran at; absent: at the knee (older results, whose move was a knee's). */
  loadShare?: number;
  from: number;
  to: number;
  /** Its rounds at `from`: how many kept up and how many fell behind. */
  keptUp: number;
  fellBehind: number;
}

/** A product's knee search: its outcome; each step is also a run in `runs`. */
export interface SweepStep {
  rate: number;
  purpose: "climb" | "refine" | "confirm" | "drain" | "paced" | "round";
  offeredPerSec: number;
  consumedPerSec: number;
  regime?: Regime;
  lagDrift?: number;
  cpuAvg?: number;
  failed?: string;
  /** The bench was interrupted during this step ("interrupted by SIGTERM"): not the product's doing. */
  interrupted?: string;
  /** The run did not do the work (see RunStatus): the sweep stops there. */
  invalid?: string;
  /** The machine was not quiet (RunConditions.noisyBecause): the step was repeated. */
  noisy?: string;
  unsettled?: boolean;
  gendataShort: boolean;
  /** The machine was markedly slower than usual during this saturated step (sweep/machine-speed.ts): repeated, or judged at the usual speed. */
  slower?: string;
  /** This saturated confirm kept up judged at the usual speed. */
  keptUpAtSpeed?: boolean;
  /** How this slower step was run again: at once, or once the machine was back (sweep/speed-wait.ts). */
  rerun?: string;
  /** µs CPU per inference over the step's window (written since the knee's repeat had to agree in cost). */
  cpuMicrosPerInference?: number;
  speedIndex?: number;
  foreignCpuAvg?: number;
  stealAvg?: number;
}

/** min / median / max over a row's keep-up runs at its knee rate. */
export interface Spread {
  runs: number;
  rowsPerCore: { min: number; median: number; max: number };
  cpuMicrosPerInference: { min: number; median: number; max: number };
  /** The same at the reference speed, when every run has readings of the current speed index version. */
  cpuMicrosAtReference?: { min: number; median: number; max: number };
}

export interface SweepRecord {
  product: string;
  /** How the knee was found: "sweep" (climb and bisect, `--sweep`) or "fast" (a drain run's ceiling, then paced steps); absent: sweep. */
  method?: "sweep" | "fast";
  knee?: number;
  /** The knee and the lowest rate above it that saturated (absent: none did, the knee is a lower bound). */
  bracket?: { keptUp: number; saturated?: number };
  /** The knee at the reference speed (knee × reference ÷ the index of its keep-up runs): knees compare across machines. */
  kneeAtReference?: number;
  ceiling?: number;
  confirmed: boolean;
  stoppedBecause: string;
  steps: SweepStep[];
}

export interface BenchResults {
  /** Schema 2 files may hold conditions, settle, invalid and misScored; readers accept schema 1 files, which do not. */
  schema: 1 | 2;
  generatedAt: string;
  host: HostInfo;
  /** The speed index read when the bench started (schema 2): the runs' readings are compared with it. */
  speedIndexReference?: number;
  /** Which speed index read it (absent: 1). */
  speedIndexVersion?: number;
  /** The model card's tolerance for a score (schema 2). */
  modelTolerance?: number;
  /** The model every row ran (`--model`); absent: the seed's risk_mlp, from before the option. */
  model?: ModelRecord;
  /** The guarantee every row ran under (`--guarantee`); absent: at-least-once, from before the option. */
  guarantee?: Guarantee;
  /** Served (`--serving served`): the model server every row called, and whether its CPU is counted. Absent: embedded. */
  serving?: ServingRecord;
  broker: { name: string; version: string; bootstrap: string; startedByRunner: boolean };
  runs: RunResult[];
  sweeps?: SweepRecord[];
  /** The main command's rounds: its budget, what it spent and why it stopped (rounds/run-rounds.ts). */
  rounds?: RoundsRecord;
  /** The model alone (model-alone/): its forward at the rows' call shapes, once per round of the main command. */
  modelAlone?: ModelAloneRun[];
  /** Why the model alone was not timed, or stopped being timed (its environment, or a failed timing). */
  modelAloneNotRun?: string;
  /** Served by the bench's own server: the server alone, called back to back by the runner after each round (serving/server-alone.ts). */
  serverAlone?: ServerAloneRun[];
  /** Why the server alone was not timed, or stopped being timed. */
  serverAloneNotRun?: string;
  /** `bench --faults`: one fault run per product. */
  faults?: FaultResult[];
  /** `bench --faults`' broker restarts, one per row and variant. */
  brokerRestarts?: BrokerRestartResult[];
  /** `--faults`' overload runs: twice the base rate for a while, then back (faults/overload.ts). */
  overloads?: OverloadResult[];
  /** `--faults --serving served`: the model server killed with SIGKILL mid-window and restarted, one per row (faults/server-kill.ts). */
  serverKills?: ServerKillResult[];
}

/** One timing of the model alone at every call shape (models/model_alone.py). */
export interface ServerAloneRun {
  /** The main command's round it ran after (1: after the knee searches). */
  round: number;
  startedAt: string;
  /** Per call shape (records a call), the server's CPU µs per record in each repetition, and the served rows that call it so. */
  shapes: Array<{ records: number; usPerRecord: number[]; usedBy: string[] }>;
}

export interface ModelAloneRun {
  /** The main command's round it ran after (1: after the knee searches). */
  round: number;
  startedAt: string;
  /** The card's name: the model the rows of this results file ran. */
  model: string;
  versions: Record<string, string>;
  /**
   * Per shape, CPU µs per record in each repetition, and the rows that call the model so. host: the
   * runtime it was timed in (absent in older files: CPython, model_alone.py), with that runtime's
   * versions when it is a row's own (Product.timeModelAlone).
   */
  shapes: Array<{
    runtime: "torch" | "onnxruntime"; records: number; usPerRecord: number[]; usedBy?: string[]; host?: ModelHost; versions?: Record<string, string>;
  }>;
  /** Rows whose model runs outside CPython and were not timed in their own runtime this round, and why. */
  notTimed?: Array<{ product: string; host: ModelHost; reason: string }>;
}

/** What every fault scenario records of its row: the product, its delivery claim, its versions and the Kafka settings it was handed. */
export interface ScenarioRow {
  product: string;
  /** The row's delivery claim, as the adapter describes it. */
  delivery: string;
  versions: Record<string, string>;
  /** The shared Kafka client settings the scenario handed the product (core's KAFKA_SETTINGS then); absent in older files. */
  kafka?: KafkaSettings;
}

/**
 * A faults run: poison pills among the records, then mid-window the product's whole process
 * tree killed with SIGKILL and started again against the same topics and consumer group.
 */
export interface FaultResult extends ScenarioRow {
  /** ok: the run completed (its figures say what the product did); failed/invalid: see reason. */
  status: "ok" | "failed" | "invalid";
  reason?: string;
  startedAt: string;
  settings: { offeredRate: number; warmupSec: number; windowSec: number; parallelism: number; seed: number; poisonRounds: number };
  /** Malformed records gendata produced. */
  pills: number;
  /** The product was still running when the kill came (it had met every pill by then). */
  survivedPills: boolean;
  /** Pills consumed and not republished (skipped or dead-lettered): pills less those in the output, readable or not. */
  pillsSkipped?: number;
  /** The row republishes records as they came, pills included (a passthrough row): nothing to skip. */
  passthrough?: boolean;
  /** Records written to topics other than input and output (a dead-letter topic shows here). */
  extraRecords?: number;
  /** Seconds since gendata's start when the kill came; how many processes it ended. */
  kill?: { atSec: number; processes: number };
  /** Seconds from the kill until the restarted product was ready, until the first new output, until the backlog was back to its size before the kill. */
  restartSec?: number;
  firstOutputSec?: number;
  drainedSec?: number;
  /** Records not consumed when the drain timed out; 0 when it drained. */
  undrained?: number;
  tally?: FaultTally;
  /** Why records were lost, where the product's delivery path explains it. */
  lossMechanism?: string;
  ticks: Tick[];
}

/**
 * A broker-restart run: mid-window the broker (not the product) is stopped, by SIGKILL (hard)
 * or a clean stop, and started again on the same port and data after downSec; the product is
 * left alone unless it has not recovered within recoveryLimitSec, then restarted once.
 */
export interface BrokerRestartResult extends ScenarioRow {
  variant: "hard" | "clean";
  /** not-run: the broker is not the runner's to restart (given with --bootstrap); reason says so. */
  status: "ok" | "failed" | "invalid" | "not-run";
  reason?: string;
  startedAt: string;
  settings: { offeredRate: number; warmupSec: number; windowSec: number; parallelism: number; seed: number; downSec: number; recoveryLimitSec: number };
  /**
   * Seconds since gendata's start when the broker was stopped; seconds until its process was
   * gone (a clean stop's shutdown); seconds until it answered again (downSec, its start included).
   */
  broker?: { stoppedAtSec: number; stopSec: number; downSec: number };
  /** Seconds from the broker's stop until the output kept up with the offered rate again (faults/recovery.ts). */
  recoverySec?: number;
  /** by-itself: the product never restarted; restarted: the bench restarted it once (see productRestart); none: not back even then. */
  recovered?: "by-itself" | "restarted" | "none";
  /** Seconds from the broker's stop when the bench restarted the product, and why (it exited, or did not recover in time). */
  productRestart?: { atSec: number; why: string };
  /** Input records not consumed when the drain gave up (then nothing is called lost). */
  undrained?: number;
  tally?: FaultTally;
  ticks: Tick[];
}

/**
 * A served row's run through a kill -9 of the bench's model server mid-window and its restart on
 * the same ports, the row left alone: the whole output audited as after a broker restart.
 */
export interface ServerKillResult extends ScenarioRow {
  /** not-run: the server is not the bench's to kill (given with --model-server); reason says so. */
  status: "ok" | "failed" | "invalid" | "not-run";
  reason?: string;
  startedAt: string;
  settings: { offeredRate: number; warmupSec: number; windowSec: number; parallelism: number; seed: number; downSec: number; recoveryLimitSec: number };
  /** Seconds since gendata's start when the server was killed; seconds from the kill until it answered ready again (its start included). */
  server?: { killedAtSec: number; downSec: number };
  /** Seconds from the kill until the row's output moved again once the server was back: how long the row stalled. */
  stalledSec?: number;
  /** Seconds from the kill until the output kept up with the offered rate again (faults/recovery.ts). */
  recoverySec?: number;
  /** Input records not consumed when the drain gave up (then nothing is called lost). */
  undrained?: number;
  tally?: FaultTally;
  ticks: Tick[];
}

/** What an overload's base rate is: a confirmed knee, the share of its knee a main command's rounds ran at, or the faults rate. */
export type OverloadBaseFrom = "knee" | `${number} × knee` | "rate";

/**
 * An overload run: the product at its base rate (its knee, its rounds' share of it, or the faults rate), then gendata at
 * twice that for burstSec, then back at the base rate until the backlog is worked off (or
 * workOffLimitSec), then a drain and the full audit.
 */
export interface OverloadResult extends ScenarioRow {
  status: "ok" | "failed" | "invalid";
  reason?: string;
  startedAt: string;
  settings: {
    offeredRate: number; burstRate: number; burstSec: number; workOffLimitSec: number; parallelism: number; seed: number; baseFrom: OverloadBaseFrom;
  };
  /** When the burst began and ended on the ticks' clock. */
  burst?: { fromSec: number; toSec: number };
  /** The product's tree exited during the run (then restarted once by the bench: productRestart). */
  stayedUp?: boolean;
  productRestart?: { atSec: number; why: string };
  baselineMemMb?: number;
  peakMemMb?: number;
  burstOfferedPerSec?: number;
  backlogAfterBurst?: number;
  backlogBaseline?: number;
  /** Seconds from the burst's end until the backlog was back at its baseline level; absent: not within workOffLimitSec. */
  workedOffSec?: number;
  undrained?: number;
  tally?: FaultTally;
  ticks: Tick[];
}
