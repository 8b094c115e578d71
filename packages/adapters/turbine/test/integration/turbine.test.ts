/**
 * Both Turbine rows end to end against a real broker: the gate's fixtures in (256 generated
 * records, then every spelling case as its raw text), each scored out with the reference risk,
 * Turbine's group offset committed, nothing left running.
 *
 * Needs a free-threaded CPython 3.14 (TURBINE_PYTHON, or python3.14t on PATH). Where there is
 * none, as on the machines this project is built on, the end-to-end tests are reported as
 * skipped with prepare()'s exact reason in their names, and a separate test checks that the
 * reason is the documented one, so any other failure still fails. What does run there without
 * Turbine's compiled core is in src/ (apps.test.ts: the handlers, the feature arithmetic, the
 * model check, the DLPack path; interpreter.test.ts; venv-plan.test.ts); what is NOT exercised
 * there is Turbine itself: its decoder, infer=ml.OnnxModel, the shards, its commits.
 */
import { join } from "node:path";
import { cacheRoot, FIXTURE_COUNT, KafkaAdmin, missingReason, modelsDir, repoRoot, type Preparation, type Product } from "@bench/core";
import { expectGatePassed, requireBootstrap, scoreFixturesThroughProduct, type StopOutcome } from "@bench/core/testing";
import { turbineGroup } from "../../src/app-env.ts";
import { findInterpreter, missingInterpreter, NO_INTERPRETER_REASON } from "../../src/interpreter.ts";
import { turbine, turbineTorch } from "../../src/product.ts";

const bootstrap = requireBootstrap();
const cacheDir = join(cacheRoot(), "turbine");
const log = (line: string): void => console.log(line);
const interpreter = findInterpreter(process.env);
const prepared = new Map<string, Preparation>();
for (const product of [turbine, turbineTorch]) {
  prepared.set(product.id, await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir, log }));
}

async function endToEnd(product: Product): Promise<void> {
  const run = await scoreFixturesThroughProduct(product, { bootstrap, cacheDir, topicPrefix: `${product.id}-it`, log, keepRunning: true });
  let stopped: StopOutcome;
  try {
    expectGatePassed(run);
    expect(run.consumed).toBe(FIXTURE_COUNT);
    // The engine counter is Turbine's own group's committed offset: read it from the broker too.
    expect(run.running.consumed.kind).toBe("engine-counter");
    const admin = await KafkaAdmin.connect(bootstrap);
    try {
      const group = turbineGroup({ groupId: run.topics.groupId, inputTopic: run.topics.input });
      expect(await admin.committedOffset(group, run.topics.input)).toBe(FIXTURE_COUNT);
    } finally {
      await admin.close();
    }
  } finally {
    stopped = await run.stop();
  }
  expect(stopped.aliveAfterStop).toEqual([]);
}

describe("turbine adapter", () => {
  test("prepare() succeeds for both rows where a free-threaded 3.14 is found, else names exactly that", () => {
    for (const [id, prep] of prepared) {
      if (interpreter.kind === "found") {
        if (!prep.ok) throw new Error(`${id}: prepare failed with ${interpreter.path}: ${prep.reason}`);
        expect(Object.keys(prep.versions)).toEqual(expect.arrayContaining(["turbine", "python", "pyarrow"]));
        expect(prep.versions.python).toMatch(/^3\.14\.\d+t$/);
      } else {
        expect({ id, prep }).toEqual({ id, prep: { ok: false, reason: missingReason(missingInterpreter(interpreter)) } });
        if (!process.env.TURBINE_PYTHON) expect(interpreter.reason).toBe(NO_INTERPRETER_REASON);
      }
    }
  });

  for (const product of [turbine, turbineTorch]) {
    const prep = prepared.get(product.id) as Preparation;
    const run = prep.ok ? test : test.skip;
    const title = prep.ok
      ? `${product.id} end to end: scores every fixture record with the reference risk; Turbine's group offset reaches every gate record; stop() leaves ` +
        `nothing running`
      : `${product.id} end to end SKIPPED: ${prep.reason}`;
    run(title, () => endToEnd(product), 900_000);
  }
});
