/**
 * The one interface a product implements. An adapter package's entry exports
 * `products: Product[]` (one Product per row on the page); the runner finds adapter packages
 * by their folder under packages/adapters/, so adding a product means adding a folder.
 *
 * Life of a product in one run: prepare() once per bench (idempotent, caches outside the
 * repo) -> start() against fresh topics, handed what prepare() found (`found`, typed per
 * adapter: a venv's python, a jar, a located server) so that it repeats none of that work -> the runner feeds it, samples rootPids()' trees and
 * reads consumed through `consumed` -> stop(). A product that exits on its own resolves
 * `exited`, and the runner marks its row failed with logTail().
 */
import type { ModelAloneTiming } from "./model-alone.ts";
import type { ExactlyOnceOffer, Guarantee } from "./guarantee.ts";
import type { KafkaSettings } from "./kafka-settings.ts";
import type { ProfileRules } from "./profile.ts";
import type { PoisonFindings } from "./poison.ts";
import type { ServedOffer } from "./serving.ts";
import type { SpellingFindings } from "./spelling-findings.ts";

/** The columns of the page's first table: what kind of thing the row is. */
export interface RowDescription {
  delivery: string;
  processing: string;
  engine: string;
  /** How the product may spread one partition over cores ("scaling on one partition"). */
  scaling: string;
  /** How much of the 19-field record it decodes. */
  decode: string;
}

export interface PrepareContext {
  repoRoot: string;
  modelsDir: string;
  /** Per-product cache folder outside the repo (venvs, jars, roots). */
  cacheDir: string;
  log(line: string): void;
}

/** `Found` is what prepare() found for start() (e.g. { python: "/cache/venv-…/bin/python" }). */
export type Preparation<Found = unknown> =
  | {
      ok: true;
      /** Handed to start() as it is. */
      found: Found;
      /** Shown on the page: product, runtime, model runtime (e.g. { faststream: "0.7.1", python: "3.11.2", torch: "1.13.1" }). */
      versions: Record<string, string>;
      /** Where this row deviates from the common settings; printed next to its row. */
      deviations?: string[];
    }
  | { ok: false; reason: string };

export interface RunContext {
  bootstrap: string;
  /** The client settings every row shares (core's KAFKA_SETTINGS); apps get them through benchAppEnv. */
  kafka: KafkaSettings;
  inputTopic: string;
  outputTopic: string;
  groupId: string;
  /**
   * The guarantee the row runs under (apps get it as BENCH_GUARANTEE, and under exactly-once their
   * producer's transactional id as BENCH_TRANSACTIONAL_ID). Exactly-once is asked only of a row
   * whose `exactlyOnce` is offered.
   */
  guarantee: Guarantee;
  /** How many cores the product may use on its own in-process mechanism. */
  parallelism: number;
  /**
   * Served: the gRPC address ("host:port") of the model server the row calls instead of its own
   * model (apps get it as BENCH_MODEL_SERVER), given only to a row whose `served` is offered.
   * Absent: the row scores with its own model (embedded).
   */
  modelServer?: string;
  /** This start's folder: logs and anything the product writes. A restart (faults) gets a new one. */
  runDir: string;
  /**
   * What the product must find again when it is started again within the run (the faults
   * scenario's kill -9, then start() with a fresh runDir): checkpoints, recovery stores, a
   * progress file. The same folder for every start of one run, created by the runner. Rows
   * whose engine commits no consumer group keep their position here.
   */
  stateDir: string;
  repoRoot: string;
  modelsDir: string;
  cacheDir: string;
  log(line: string): void;
}

/** Where the runner reads how many input records the product has consumed. */
export type ConsumedSource =
  | { kind: "group-offsets" }
  | { kind: "engine-counter"; describe: string; read(): Promise<number> };

/** What an engine reports about the processes it runs elsewhere. */
export interface RemoteResources {
  describe: string;
  /** CPU seconds since they started (cumulative), and their resident memory now when known. */
  read(): Promise<{ cpuSeconds: number; rssBytes?: number }>;
}

export interface ProductExit {
  code: number | null;
  signal: string | null;
}

export interface RunningProduct {
  /** Roots of the process trees to sample; descendants are found afresh each tick. */
  rootPids(): number[];
  consumed: ConsumedSource;
  /**
   * Work the product runs outside rootPids()' trees, where /proc cannot see it (executors on a
   * cluster): the engine's own cumulative CPU seconds and current resident memory for it, which
   * the runner adds to each tick's /proc figures. `describe` names the instrument (shown with the
   * row). Absent: everything the product runs is under rootPids().
   */
  remoteResources?: RemoteResources;
  /** Settles when the product's main process ends, for whatever reason. */
  exited: Promise<ProductExit>;
  logTail(lines?: number): string;
  /** Ends the product (gracefully, then by force); never throws. */
  stop(): Promise<void>;
}

/**
 * One thing a product needs from this machine, as its own prepare() looks for it: the doctor
 * and the bench cannot disagree, because the adapter computes both with one function. Rows
 * that share a need share that function and its `name`, and the doctor lists it once.
 */
export type Prerequisite = PrerequisiteFound | PrerequisiteMissing;

export interface PrerequisiteFound {
  /** The doctor's row, e.g. "Python 3.11". */
  name: string;
  /** What this machine has, briefly: "3.11.2", "none", a path. */
  have: string;
  ok: true;
}

export interface PrerequisiteMissing {
  name: string;
  have: string;
  ok: false;
  /** Why the row cannot run without it, as prepare() says it. */
  reason: string;
  /** What to do about it: a package to install, a variable to set. */
  fix: string;
}

/** A Preparation that succeeded. */
export type Prepared<Found = unknown> = Extract<Preparation<Found>, { ok: true }>;

export interface Product<Found = unknown> {
  /** The row's name on the command line and on the page. */
  id: string;
  row: RowDescription;
  /** Standing notes printed under the tables for this row. */
  notes?: string[];
  /**
   * Spelling cases (core's SPELLING_CASES, by name) this row's framework reads otherwise than
   * the record means, by design: the gate holds the row to exactly that, and the page prints each
   * with the row's notes (spelling-findings.ts). Absent: the row reads every case right.
   */
  spellingFindings?: SpellingFindings;
  /**
   * Must-refuse cases (core's REFUSAL_CASES, by name) this row's framework reads instead, by
   * design: the poison suite does not hold the row to refusing them, and the page prints each with
   * the row's notes. Absent: the row refuses every case.
   */
  poisonFindings?: PoisonFindings;
  /**
   * A reference row that republishes records without scoring them (a ceiling to read the
   * others against): verification then checks event ids only.
   */
  passthrough?: boolean;
  prepare(ctx: PrepareContext): Promise<Preparation<Found>>;
  /**
   * Seconds this row, started cold at a steady rate, takes to reach the cost it has warm (a JIT
   * compiling its hot path, a micro-batch engine's first batches). A round restarts the product and
   * works it this long under its knee first (PacedSession.warmUp), as the search's drain works it
   * before the knee's step; its window then settles as a warm step's. Absent: no warm-up.
   */
  coldStartSec?: number;
  /**
   * A micro-batch engine's trigger interval in seconds: a record it keeps up with waits up to one
   * interval for its batch and up to one more while the batch runs, so a settled backlog holds that
   * much more (metrics/settle.ts). Absent: the row works record by record or in batches it closes
   * as records arrive.
   */
  microBatchSec?: number;
  /**
   * How the row calls the model: the runtime and the most records one call takes (1 for a row
   * that scores record by record). The model alone is timed at each row's shape, so the page can
   * split the row's cost into the model and the framework around it. Absent: the row calls no
   * model (a passthrough), or the engine sizes its calls and the adapter cannot say how (the page
   * then splits nothing for it).
   */
  modelCall?: ModelCall;
  /**
   * Times the model alone in this row's own runtime (its modelCall's host other than CPython), at
   * its own call shape, the input already in the form the row hands its runtime: CPU µs per record
   * in each repetition. Preparation is the adapter's (cached builds are reused). Absent for a row
   * whose model runs outside CPython: the page says its runtime was not timed, and borrows nothing.
   */
  timeModelAlone?(ctx: PrepareContext, model: string): Promise<ModelAloneTiming>;
  /** `found` is what this bench's prepare() returned; start() does not look it up again. */
  start(ctx: RunContext, found: Found): Promise<RunningProduct>;
  /** How `bench --profile` sorts this row's frames into the breakdown's categories (the adapter's profile-rules.ts). */
  profileRules?: ProfileRules;
  /**
   * Rows one adapter builds from one environment (a passthrough beside its scoring row, two
   * variants of one engine) name the same family: they share a cache folder, and the page
   * reads the row's own version from `versions[family]` when `versions[id]` is absent.
   * Absent: the id is the family.
   */
  family?: string;
  /**
   * What this row needs from the machine beyond the bench's own needs (Node.js; java and Maven
   * for the broker), found by the same lookup its prepare() uses and without building anything,
   * so `bench doctor` can say in seconds whether it runs here and what to fix. Absent: nothing
   * beyond the bench's own (prepare() still decides).
   */
  prerequisites?(): Promise<Prerequisite[]>;
  /**
   * How this row's delivery path, as configured, can lose records to a kill -9 of its process
   * tree; `bench --faults` names it beside a loss so the number comes with its cause. Absent:
   * the path cannot lose records, and a loss is reported as unexplained.
   */
  lossUnderKill?: string;
  /**
   * Whether the row's framework offers exactly-once into Kafka, how, and when it commits; or why
   * not, as its docs say (`bench --guarantee exactly-once` runs the rows that offer it and the page
   * prints the others' reasons). Absent: its adapter does not say, and the row is not run so.
   */
  exactlyOnce?: ExactlyOnceOffer;
  /**
   * Whether the row can call a model server instead of its own model (`bench --serving served`),
   * how; or why not. Absent: its adapter does not say, and the row is not run served.
   */
  served?: ServedOffer;
  /**
   * The short bench CI runs for this row (`bench --list --json` feeds the workflow's matrix):
   * an offered rate a CI runner keeps up with. Absent: the bench's default rate.
   */
  ci?: { rate: number };
  /**
   * This row is the plain client every row of one runtime sits on (the floor): the page states,
   * for each other row whose `versions` name that runtime (e.g. "python"), that row's µs per
   * record minus this row's at the same rate, measured in the same bench ("what the framework
   * adds"). "native" (the compiled row with no runtime) is the floor of every row: the page reads
   * each row against it and gives each row's cost as a multiple of it. Absent: the row is no floor.
   */
  floorFor?: string;
}

/** The language runtime a row's process calls the model from; the model alone is timed in it. */
export type ModelHost = "cpython" | "jvm" | "node" | "rust";

/** A runtime and a number of records per call: the shape in which a row calls the model. */
export interface ModelCall {
  runtime: "torch" | "onnxruntime";
  /** The most records one call takes; a row's calls at its knee may hold fewer. */
  records: number;
  /** Where the call is made (ONNX Runtime for Java, onnxruntime-node, the ort crate); absent: CPython. */
  host?: ModelHost;
}
