/**
 * The UDF server for real, without RisingWave: started as the adapter starts it, called over
 * Arrow Flight by test/flight_client.py (pyarrow.flight, do_exchange as RisingWave's actors do)
 * on the 256 generated fixture records and the spelling cases' values, in chunks like RisingWave's.
 */
import { existsSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cacheRoot, debianTorchEnv, ensurePythonEnv, fixturesDir, loadGateRecords, loadModelCard, modelsDir } from "@bench/core";
import { PYTHON_ROW } from "./pins.ts";
import { adapterDir, startUdfServer, type UdfServer } from "./udf-server.ts";

// First run creates the pinned venv (pip, a minute or two); later runs reuse it.
const SETUP_MS = 600_000;
const CALL_MS = 60_000;

const fixtures = loadGateRecords(fixturesDir());
let python: string;
let server: UdfServer | undefined;

beforeAll(async () => {
  ({ python } = await ensurePythonEnv(debianTorchEnv(PYTHON_ROW.requirements), join(cacheRoot(), "risingwave"), (line) => console.log(line)));
  server = await startUdfServer({ python, modelsDir: modelsDir(), logFile: join(mkdtempSync(join(tmpdir(), "rw-udf-")), "udf-server.log") });
}, SETUP_MS);

afterAll(async () => {
  await server?.process.stop();
});

async function callRisk(chunkRows: number): Promise<{ schema: string[]; scores: number[] }> {
  // One record a line: the spelling cases' values re-stringified (the client reads the UDF's four arguments from each).
  const input = fixtures.map((f) => JSON.stringify(JSON.parse(f.value))).join("\n");
  const { stdout } = await execa(python, [join(adapterDir(), "test", "flight_client.py"), `127.0.0.1:${server!.port}`, String(chunkRows)], { input });
  return JSON.parse(stdout) as { schema: string[]; scores: number[] };
}

test("declares risk(latency_ms, queue_depth, cpu_usage, error_count: double) -> double", async () => {
  const { schema } = await callRisk(256);
  expect(schema).toEqual(["latency_ms:double", "queue_depth:double", "cpu_usage:double", "error_count:double", "risk:double"]);
}, CALL_MS);

test.each([256, 100, 1])("scores every fixture record within the card's tolerance of the reference (chunks of %i rows)", async (chunkRows) => {
  const { scores } = await callRisk(chunkRows);
  expect(scores).toHaveLength(fixtures.length);
  const worst = Math.max(...scores.map((s, i) => Math.abs(s - fixtures[i]!.risk)));
  expect(worst).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
}, CALL_MS);

test("SIGTERM stops it cleanly and its process is gone", async () => {
  const pid = server!.process.pid;
  const exit = await server!.process.stop();
  server = undefined;
  expect(exit).toEqual({ code: 0, signal: null });
  expect(existsSync(`/proc/${pid}`)).toBe(false);
}, CALL_MS);
