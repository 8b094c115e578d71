/**
 * The page's standing prose, apart from the code that lays out the tables: what each table's
 * columns mean and how the bench decides. Functions where a bound from the code is quoted, so
 * the page never states a bound the code does not use.
 */
import { DRIFT_TOLERANCE, RATE_TOLERANCE } from "../metrics/derive.ts";
import type { ModelRecord } from "../results/types.ts";
import { DEFAULT_MODEL } from "@bench/core";


const shape = (model: ModelRecord): string => `4-${model.hidden.join("-")}-1`;

/** The page's opening paragraph, for the model the results' rows ran (absent: the seed's 4-16-1, whose words are the standing ones). */
export function intro(model?: ModelRecord): string {
  const what =
    model === undefined || model.name === DEFAULT_MODEL
      ? "Score every record with the SAME frozen 4-16-1 PyTorch MLP (models/, trained once by models/make_model.py). No filter, so selectivity is 1.0 " +
        "— this prices what each framework costs around a forward pass: decode, feature extraction, the call itself, encode, produce. The model is " +
        "deliberately tiny so the frameworks, not the matmul, are what is measured."
      : `Score every record with the SAME frozen ${shape(model)} PyTorch MLP (${model.name}, ${model.multiplyAddsPerRecord.toLocaleString("en-US")} ` +
        "multiply-adds a record; models/, trained by models/make_model.py from the seed model's data). No filter, so selectivity is 1.0 — this prices what " +
        "each framework costs around a forward pass when the model weighs about as much as a framework around it, not the seed's deliberately tiny 4-16-1.";
  return `${what} Each product is benched at one offered rate per run; a row's regime says whether that rate was sustainable (its knee) or beyond it.`;
}

export function characteristics(model?: ModelRecord): string {
  const network = model === undefined || model.name === DEFAULT_MODEL
    ? "a frozen 4-16-1 MLP (Linear/ReLU/Linear/Sigmoid)"
    : `a frozen ${shape(model)} MLP (Linear/ReLU for each hidden layer, then Linear/Sigmoid; ${model.name})`;
  return "In-process computation — Per record: four gendata metrics (latency_ms, queue_depth, cpu_usage, error_count) divided by their documented maxima " +
    `(5000, 1000, 100, 50) and clipped into [0, 1], fed to ${network} → risk. Stateless; every record is scored and republished as {event_id, ts_ms, risk}.`;
}

export const INPUT_AND_GATE =
  "Input is a single Kafka partition (lz4, JSON, 19 fields per record). Each product may spread it over several cores through its own in-process mechanism " +
    "(what it actually used is cpu_avg); an in-process exchange is not a broker hop — the extra rec/rec column counts records that DID cross the broker on " +
    "other topics. Every product first scores the committed fixture records and is timed only if every risk matches the reference model (the sanity table).";

export const throughputDefinitions = (): string =>
  `consumed/s is what the product actually drained (its consumer-group offset or engine counter, read as the median of its rate over every span of one ` +
    `commit period, so one late commit, which shifts the committed staircase by a step, cannot move it), offered/s what gendata produced (the input topic's ` +
    `high watermark). The regime is read from the work itself: every record is republished, so the output topic moves with the work whatever a product's ` +
    `commit cadence. keep-up = output/s within ${RATE_TOLERANCE * 100}% of offered/s with a flat backlog of unrepublished records (|lag drift| ≤ ` +
    `${DRIFT_TOLERANCE * 100}%), and committed offsets that trail the input by no more than one commit step more at the window's end than at its start (a ` +
    `sustainable point); saturated = fed beyond capacity, so consumed/s IS the ceiling and latency is unbounded; draining = still eating a backlog. lag ` +
    `drift = growth of the unrepublished backlog over the window (least-squares trend) ÷ records republished. cpu_avg is the whole process tree, 100 = one ` +
    `core busy. µs @ ref = µs CPU / inference at the reference speed (see Machine above). rows/s per core = consumed ÷ (cpu_avg/100); rows/s per GB = ` +
    `consumed ÷ memory; extra rec/rec = records written to topics other than the input and output per record consumed (0 = no broker hop). Latency runs ` +
    `from the input record's produce time to the output record's broker timestamp (LogAppendTime), over the window's records. counts? ✓ = valid, settled, ` +
    `keeping up and measured on a quiet machine; a row marked ✗ INVALID did not do the work and is not a result; ⚠ NOISY or UNSETTLED figures are not ` +
    `comparable; ⚠ SATURATED or DRAINING is not a sustainable point.`;

export const RESOURCES_NOTE =
  "CPU is summed over the whole process tree (JVMs, Python workers, UDF servers), found afresh each second, as utime+stime deltas per 1 s sample — 100 = " +
    "one core. Memory is PSS (shared pages counted once) where readable, RSS otherwise (instrument). The broker, gendata and the runner are never in a " +
    "product's tree; their cost is listed below.";

export const FOREIGN_LOAD_NOTE =
  "Foreign load is the CPU of every process on the machine that is neither the product's tree nor the harness (runner, gendata, broker), from the same /proc " +
    "reading as the product's; steal is from /proc/stat. 100 = one core.";

export const SPREAD_NOTE = "Over the runs of the row's product at the row's rate that count (valid, settled, quiet, keep-up): a sweep's knee and its confirm " +
  "repeat, or `--repeat N`.";
