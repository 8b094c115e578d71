/**
 * The Turbine apps' Python without Turbine: Turbine's compiled core loads only on a
 * free-threaded CPython 3.14, which this machine cannot have, but the handler classes, the
 * feature arithmetic, the model check and the DLPack path do not need it (app/onnx_features.py,
 * app/torch_score.py). test/check_apps.py runs them on the 256 fixture records, decoded the
 * way app/common.py's schema makes Turbine decode them, in a venv over Debian's python3.11 and
 * python3-torch built into the cache by this test.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { cacheRoot, loadModelCard, ensurePythonEnv, fixturesDir, loadFixtures, modelsDir } from "@bench/core";
import { APP_DIR } from "./product.ts";

const SETUP_MS = 600_000;
const RUN_MS = 120_000;
/** Debian 12's python3-torch 1.13.1 wants numpy below 2; pydantic (app/common.py's schema) at faststream's pins. */
const HOST_CHECK_ENV = {
  python: "/usr/bin/python3.11",
  systemSitePackages: true,
  requirements: [
    "pyarrow==25.0.1",
    "onnxruntime==1.20.1",
    "numpy==1.24.2",
    "pydantic==2.14.4",
    "pydantic_core==2.50.5",
    "typing-extensions==4.16.0",
    "typing-inspection==0.4.5",
    "annotated-types==0.8.0",
  ],
};

const fixtures = loadFixtures(fixturesDir());
let python: string;

beforeAll(async () => {
  ({ python } = await ensurePythonEnv(HOST_CHECK_ENV, join(cacheRoot(), "turbine"), (line) => console.log(line)));
}, SETUP_MS);

interface Checked {
  columns: string[];
  event_ids: string[];
  risk: number[];
  features?: number[][];
  dlpack_shares_buffer?: boolean;
}

/** What app/common.py reads from the runner (benchAppEnv's names). */
const APP_ENV = {
  BENCH_BOOTSTRAP: "127.0.0.1:9",
  BENCH_INPUT_TOPIC: "bench.in",
  BENCH_OUTPUT_TOPIC: "bench.out",
  BENCH_GROUP_ID: "bench.group",
  BENCH_TURBINE_STATE_DIR: "/tmp/turbine-state",
  BENCH_TURBINE_API_PORT: "18080",
};

async function check<T = Checked>(variant: "onnx" | "torch" | "wiring" | "ready"): Promise<T> {
  const { stdout } = await execa(python, [join(APP_DIR, "..", "test", "check_apps.py"), variant], {
    input: readFileSync(join(fixturesDir(), "records.jsonl"), "utf8"),
    env: { ...APP_ENV, BENCH_MODELS_DIR: modelsDir(), PYTHONPATH: [APP_DIR, modelsDir()].join(":") },
  });
  return JSON.parse(stdout) as T;
}

test("turbine apps: topics and subscription as turbine-fast 0.3.0a1 takes them; partition_key=None at parallelism 1, not omitted", async () => {
  const out = await check<{ calls: unknown[][]; parallelism_1: Record<string, unknown>; parallelism_2: Record<string, unknown> }>("wiring");
  expect(out.calls).toEqual([
    ["KafkaBroker", { bootstrap: APP_ENV.BENCH_BOOTSTRAP }],
    ["Turbine", { app_id: APP_ENV.BENCH_GROUP_ID, state_dir: APP_ENV.BENCH_TURBINE_STATE_DIR, from_earliest: true, api_port: 18080, api_host: "127.0.0.1" }],
    ["topic", APP_ENV.BENCH_INPUT_TOPIC, { schema: "Projected", on_error: "skip" }],
    ["topic", APP_ENV.BENCH_OUTPUT_TOPIC, { message_key: "partition_key" }],
  ]);
  expect(out.parallelism_1).toEqual({ name: "score", processing_guarantee: "at_least_once", parallelism: 1, partition_key: null, on_processing_error: "fail" });
  expect(out.parallelism_1).toHaveProperty("partition_key", null);
  expect(out.parallelism_2).toMatchObject({ parallelism: 2, partition_key: "partition_key" });
}, RUN_MS);

test("turbine apps: the ready line is printed once, after /ready first answers 200, and polling then stops", async () => {
  const out = await check<{ printed: string[]; polls: string[] }>("ready");
  expect(out.printed).toEqual(["BENCH_READY"]);
  // Two 503s, then the 200 that ends the poll: nothing polls after the app is ready.
  expect(out.polls).toEqual(["/ready", "/ready", "/ready"]);
}, RUN_MS);

const worstError = (risk: number[]): number => Math.max(...risk.map((r, i) => Math.abs(r - fixtures[i]!.risk)));

test("turbine: Score emits the ids and the four float32 features; the ONNX model on them gives the reference risk", async () => {
  const out = await check("onnx");
  expect(out.columns).toEqual([
    "event_id:string",
    "ts_ms:int64",
    "partition_key:string",
    "latency_ms_n:float",
    "queue_depth_n:float",
    "cpu_usage_n:float",
    "error_count_n:float",
  ]);
  expect(out.event_ids).toEqual(fixtures.map((f) => f.record.event_id));
  // Feature i of row r against the fixture's float64 features, at float32 precision.
  const worstFeature = Math.max(...fixtures.flatMap((f, r) => f.features.map((v, i) => Math.abs(v - out.features![i]![r]!))));
  expect(worstFeature).toBeLessThan(1e-6);
  expect(out.risk).toHaveLength(fixtures.length);
  expect(worstError(out.risk)).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
}, RUN_MS);

test("turbine-torch: Score views the columns through DLPack without a copy and scores the reference risk", async () => {
  const out = await check("torch");
  expect(out.columns).toEqual(["event_id:string", "ts_ms:int64", "partition_key:string", "risk:float"]);
  expect(out.event_ids).toEqual(fixtures.map((f) => f.record.event_id));
  expect(out.dlpack_shares_buffer).toBe(true);
  expect(worstError(out.risk)).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
}, RUN_MS);
