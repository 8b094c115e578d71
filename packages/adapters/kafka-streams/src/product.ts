/**
 * Kafka Streams: a plain Java app (app/src/bench) on kafka-streams 4.1.1 with ONNX Runtime for
 * Java scoring the frozen model's ONNX export, one record per run, or, served, one call to the
 * model server per record (ServedModel.java). prepare() resolves the pinned jars and compiles the
 * app once into the cache; start() runs it on the JVM the doctor checked.
 */
import { join } from "node:path";
import {
  JAVA_HOME,
  javaPrerequisite,
  KAFKA_SETTINGS,
  missingReason,
  runningApp,
  startReadyApp,
  timeModelAloneChild,
  timingArgs,
  type ModelAloneTiming,
  type Preparation,
  type PrepareContext,
  type Product,
  type RunContext,
  type RunningProduct,
} from "@bench/core";
import { buildApp, type BuiltApp } from "./build.ts";
import { javaClientSettings } from "./client-settings.ts";
import { appEnv, HEAP, jvmArgs } from "./jvm-args.ts";
import { ARTIFACTS, ONNXRUNTIME_VERSION, VERSIONS } from "./pins.ts";

/** JVM start, ONNX session, the group's first rebalance, on a busy 2-core machine. */
const READY_TIMEOUT_MS = 120_000;
/** Above the app's own close timeout (20 s): Streams commits and closes its clients first. */
const STOP_GRACE_MS = 30_000;
/** The JVM's JIT compiles the consume-score-produce loop while it runs: started cold at its knee, it falls behind at first. */
const COLD_START_SEC = 30;

const unmapped = javaClientSettings(KAFKA_SETTINGS).unmapped;
export const DEVIATIONS = [
  `the Java consumer has no prefetch queue: ${unmapped.join(", ")} have no equivalent; the fetch numbers and the producer settings are set under the Java ` +
    `client's names (fetch.wait.max.ms as fetch.max.wait.ms), on Streams' main and restore consumers and its producer`,
  "one record per ONNX Runtime run: a Streams processor is handed one record at a time, and batching would mean buffering records by hand across process() " +
    "calls",
];

async function prepare(ctx: PrepareContext): Promise<Preparation<BuiltApp>> {
  const jvm = await javaPrerequisite();
  if (!jvm.ok) return { ok: false, reason: missingReason(jvm) };
  try {
    const built = await buildApp(ctx.cacheDir, ARTIFACTS, JAVA_HOME, ctx.log);
    return { ok: true, versions: { ...VERSIONS, java: jvm.have }, deviations: DEVIATIONS, found: built };
  } catch (error) {
    return { ok: false, reason: `building the Kafka Streams app: ${(error as Error).message}` };
  }
}

/** One ONNX Runtime run per record (the Processor API hands process() one record). */
const MODEL_CALL = { runtime: "onnxruntime", records: 1, host: "jvm" } as const;

/** The row's own call (RiskModel.forward) at its own shape, on the JVM the row runs on, from the app's cached build. */
async function timeModelAlone(ctx: PrepareContext, model: string): Promise<ModelAloneTiming> {
  const prepared = await prepare(ctx);
  if (!prepared.ok) throw new Error(prepared.reason);
  const built = prepared.found;
  const timing = await timeModelAloneChild(
    "the kafka-streams row's model alone",
    join(JAVA_HOME, "bin", "java"),
    [`-Xmx${HEAP}`, `-Donnxruntime.native.path=${built.onnxNativeDir}`, "-cp", built.classpath, "bench.ModelAlone", ctx.modelsDir,
      String(MODEL_CALL.records), ...timingArgs()],
    { env: { ...process.env, BENCH_MODEL: model, JAVA_HOME } as Record<string, string> },
  );
  return { versions: { onnxruntime: ONNXRUNTIME_VERSION, ...timing.versions }, usPerRecord: timing.usPerRecord };
}

async function start(ctx: RunContext, built: BuiltApp): Promise<RunningProduct> {
  const app = await startReadyApp({
    name: "kafka-streams",
    command: join(JAVA_HOME, "bin", "java"),
    args: jvmArgs(built),
    cwd: ctx.runDir,
    env: appEnv(ctx, JAVA_HOME),
    logFile: join(ctx.runDir, "kafka-streams.log"),
    readyTimeoutMs: READY_TIMEOUT_MS,
  });
  ctx.log(`kafka-streams app ${ctx.groupId} consuming ${ctx.inputTopic} (pid ${app.pid}; one stream thread whatever the parallelism, ${ctx.parallelism})`);
  return runningApp(app, { stopGraceMs: STOP_GRACE_MS });
}

export const kafkaStreams: Product<BuiltApp> = {
  id: "kafka-streams",
  exactlyOnce: {
    offered: true,
    how: "processing.guarantee=exactly_once_v2 (Streams' transactional producer; the consumed offsets commit in the transaction)",
    commits: "every 100 ms (commit.interval.ms at Streams' default under exactly_once_v2)",
  },
  served: {
    offered: true,
    how: "one Open Inference Protocol (KServe v2) gRPC ModelInfer call per record (the Processor API hands process() one record, as it scores " +
      "embedded), a blocking unary call with grpc-java; the record is held and nothing committed while the server is down",
  },
  modelCall: MODEL_CALL,
  timeModelAlone,
  coldStartSec: COLD_START_SEC,
  row: {
    delivery: "at-least-once (processing.guarantee=at_least_once, commit every 1 s after the producer is flushed; acks=all, idempotent, lz4)",
    processing: "per-record (Processor API; one ONNX Runtime run per record, 1 intra-op thread)",
    engine: "in-process · JVM (Kafka Streams, one stream thread) + ONNX Runtime for Java (native, JNI)",
    scaling: "none on one partition (one partition is one task; --parallelism does not add stream threads)",
    decode: "full record (19 of 19 fields, Jackson readTree); bench_kit's complete-record rule",
  },
  notes: [
    "Kafka Streams runs one task per input partition, so on the one partition the app has one stream thread whatever --parallelism says. The Processor API's " +
      "process() gets one record: a full Jackson readTree of the value, the complete-record check, clip(value / maximum, 0, 1) as float32 for the four " +
      "metrics (maxima from the model card), one OrtSession.run on a [1, 4] tensor (ONNX Runtime, 1 intra-op thread), and {event_id, ts_ms, risk} encoded " +
      "with Jackson, keyed by partition_key.",
    "At-least-once: Streams commits the group's offsets every second (commit.interval.ms=1000) and only after flushing its producer; consumed/s is read from " +
      "those committed offsets (application.id is the run's group). A malformed record is skipped and counted in the processor (logged with its offset); " +
      "LogAndContinue handlers for deserialization and processing errors back it up. Stateless: no changelog or repartition topics.",
    "Served (--serving served): the same process() sends the record's four normalised features to the model server as one ModelInfer call " +
      "(grpc-java's blocking unary call on the stream thread, 10 s deadline; the v2 messages written with protobuf-java's coded streams) and " +
      "never loads ONNX Runtime's session. A server that is down or slow is called again every 0.2 s for up to 120 s: the stream thread waits, so " +
      "Streams commits nothing. A wrong answer or an outage past that fails the stream thread (processing.exception.handler is LogAndFail when " +
      "served, so no record is dropped) and the app exits; its restart reads the uncommitted records again.",
  ],
  prepare,
  start,
  prerequisites: async () => [await javaPrerequisite()],
  ci: { rate: 5000 },
};
