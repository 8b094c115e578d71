/**
 * The Python apps' shared kit (models/bench_kit.py) against the same vectors the gate and the
 * faults run use: every committed spelling case is a record it can score, every poison pill
 * kind is one it skips with the one skip line, the fixture records score the reference risk,
 * and the counter file it writes is one core's reader reads. Run by Debian's python3.11 and
 * python3-torch, the interpreter of the rows.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { counterFile } from "./counter-file.ts";
import { DEBIAN_PYTHON } from "./debian-torch.ts";
import { loadFixtures } from "./fixtures.ts";
import { loadModelCard } from "./model.ts";
import { fixturesDir, modelsDir } from "./paths.ts";
import { POISON_KINDS, poisonValue, REFUSAL_CASES } from "./poison.ts";
import { loadSpellings } from "./spellings.ts";

const KIT_MS = 60_000;

/** Runs `script` with the kit importable; stdin one hex-encoded value a line. */
function runKit(script: string, args: string[] = [], values: Buffer[] = []): { stdout: string; stderr: string } {
  const result = spawnSync(DEBIAN_PYTHON, ["-c", `import sys\nsys.path.insert(0, sys.argv[1])\n${script}`, modelsDir(), ...args], {
    input: values.map((v) => v.toString("hex")).join("\n") + "\n",
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`kit script failed (${result.status}): ${result.stderr}`);
  return { stdout: result.stdout, stderr: result.stderr };
}

/** Each value decoded as an app decodes it (UTF-8 JSON, a failure is None), then judged by the kit. */
const JUDGE = `
import json
import bench_kit
for line in sys.stdin:
    raw = bytes.fromhex(line.strip())
    try:
        record = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        record = None
    problem = bench_kit.record_problem(record)
    out = {"problem": problem}
    if problem is None:
        out["metrics"] = list(bench_kit.metrics_of(record))
        out["output"] = bench_kit.output_record(record, 0.5)
    print(json.dumps(out))
`;

function judge(values: Buffer[]): Array<{ problem: string | null; metrics?: number[]; output?: { event_id: string; ts_ms: number; risk: number } }> {
  return runKit(JUDGE, [], values).stdout.trim().split("\n").map((line) => JSON.parse(line));
}

describe("models/bench_kit.py: the complete-record rule", () => {
  it("scores every committed spelling case, reading its event id and metrics as the fixture says", () => {
    const cases = loadSpellings(fixturesDir());
    const verdicts = judge(cases.map((c) => Buffer.from(c.value, "utf8")));
    verdicts.forEach((v, i) => {
      const c = cases[i]!;
      expect({ name: c.name, problem: v.problem }).toEqual({ name: c.name, problem: null });
      expect(v.output).toEqual({ event_id: c.event_id, ts_ms: c.ts_ms, risk: 0.5 });
    });
  });

  it("skips every poison pill kind with a reason", () => {
    const verdicts = judge(POISON_KINDS.map((kind, n) => poisonValue(kind, n)));
    verdicts.forEach(
      (v, i) => expect(
        { kind: POISON_KINDS[i], skipped: typeof v.problem === "string" && v.problem.length > 0 },
      ).toEqual({ kind: POISON_KINDS[i], skipped: true }),
    );
  });

  it("skips every must-refuse case with a reason: top-level non-objects and JSONTestSuite's n_number cases", () => {
    const verdicts = judge(REFUSAL_CASES.map((c) => c.value));
    verdicts.forEach((v, i) =>
      expect({ name: REFUSAL_CASES[i]!.name, skipped: typeof v.problem === "string" && v.problem.length > 0 }).toEqual(
        { name: REFUSAL_CASES[i]!.name, skipped: true },
      ));
  });

  it("refuses an integer too large for a float instead of failing on it (Python's json decodes one)", () => {
    const [verdict] = judge([Buffer.from(`{"event_id":"e1","ts_ms":1,"latency_ms":1${"0".repeat(400)},"queue_depth":1,"cpu_usage":1,"error_count":1}`)]);
    expect(verdict?.problem).toMatch(/^latency_ms is not a finite number/);
  });

  it("writes settings as a client's text: booleans as true/false, numbers as written", () => {
    const script = `import bench_kit, json\nprint(json.dumps(bench_kit.settings_as_text({"enable.idempotence": True, "linger.ms": 5, "acks": "all", "x": ` +
      `False})))`;
    expect(JSON.parse(runKit(script).stdout)).toEqual({ "enable.idempotence": "true", "linger.ms": "5", acks: "all", x: "false" });
  });

  it("keeps one list of metric names: the model's", () => {
    expect(runKit("import bench_kit, risk_model\nprint(bench_kit.METRICS is risk_model.METRICS, list(bench_kit.METRICS))").stdout.trim()).toBe(
      `True ['latency_ms', 'queue_depth', 'cpu_usage', 'error_count']`,
    );
  });
});

/** RecordDecoder over each value (offset 100 + its index): what decode returned, and the skip lines. */
const DECODE = `
import json
import bench_kit
decoder = bench_kit.RecordDecoder()
for offset, line in enumerate(sys.stdin, start=100):
    record = decoder.decode(bytes.fromhex(line.strip()), offset)
    print(json.dumps(None if record is None else record["event_id"]))
print(json.dumps(decoder.skipped))
`;

describe("models/bench_kit.py: RecordDecoder", () => {
  it("passes a good record through and skips every pill kind with one line: offset, reason, running count", () => {
    const good = Buffer.from(JSON.stringify(loadFixtures(fixturesDir())[0]!.record));
    const pills = POISON_KINDS.map((kind, n) => poisonValue(kind, n));
    const { stdout, stderr } = runKit(DECODE, [], [good, ...pills, good]);
    const decoded = stdout.trim().split("\n").map((line) => JSON.parse(line) as string | number | null);
    const goodId = loadFixtures(fixturesDir())[0]!.record.event_id;
    expect(decoded).toEqual([goodId, ...pills.map(() => null), goodId, pills.length]);
    const lines = stderr.trimEnd().split("\n");
    expect(lines).toHaveLength(pills.length);
    lines.forEach((line, i) => expect(line).toMatch(new RegExp(`^skipped record at offset ${101 + i}: \\S.* \\(skipped ${i + 1}\\)$`)));
  });
});

describe("models/bench_kit.py: RiskScorer", () => {
  it("scores the fixture records with the reference risk, its features the fixture's at float32 precision", () => {
    const fixtures = loadFixtures(fixturesDir());
    const script = `
import json
import bench_kit
records = [json.loads(bytes.fromhex(line.strip()))["record"] for line in sys.stdin if line.strip()]
scorer = bench_kit.RiskScorer()
features = scorer.features([bench_kit.metrics_of(r) for r in records]).tolist()
print(json.dumps({"risks": scorer.risks(records), "features": features, "none": scorer.risks([])}))
`;
    const out = JSON.parse(
      runKit(script, [], fixtures.map((f) => Buffer.from(JSON.stringify(f)))).stdout,
    ) as { risks: number[]; features: number[][]; none: number[] };
    expect(out.none).toEqual([]);
    expect(out.risks).toHaveLength(fixtures.length);
    const worstRisk = Math.max(...out.risks.map((r, i) => Math.abs(r - fixtures[i]!.risk)));
    expect(worstRisk).toBeLessThanOrEqual(loadModelCard(modelsDir()).tolerance);
    out.features.forEach((row, i) => expect(row).toEqual(fixtures[i]!.features.map((f) => Math.fround(f))));
  }, KIT_MS);
});

describe("models/bench_kit.py: ConsumedCounter", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "kit-counter-"));
    file = join(dir, "consumed");
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("writes nothing before a position, then the highest next offset whole: what core's counterFile reads", async () => {
    const script = `
import os
import bench_kit
counter = bench_kit.ConsumedCounter(sys.argv[2], interval_s=3600)
counter.write_when_due()
print(os.path.exists(sys.argv[2]))
counter.advance(120)
counter.advance(80)
counter.write()
`;
    expect(runKit(script, [file]).stdout.trim()).toBe("False");
    expect(await counterFile(file, "kit").read()).toBe(120);
    expect(readdirSync(dir)).toEqual(["consumed"]);
  });

  it("keeps the file written from a thread of its own", async () => {
    const script = `
import os, time
import bench_kit
counter = bench_kit.ConsumedCounter(sys.argv[2], interval_s=0.05)
counter.keep_written()
counter.advance(7)
deadline = time.monotonic() + 10
while not os.path.exists(sys.argv[2]) and time.monotonic() < deadline:
    time.sleep(0.01)
`;
    runKit(script, [file]);
    expect(existsSync(file)).toBe(true);
    expect(await counterFile(file, "kit").read()).toBe(7);
  });
});

describe("models/bench_kit.py: stop_event", () => {
  it("turns SIGTERM into a set event, after the app's own on_stop", () => {
    const script = `
import os, signal
import bench_kit
calls = []
stopping = bench_kit.stop_event(on_stop=lambda: calls.append("on_stop"))
print(stopping.is_set())
os.kill(os.getpid(), signal.SIGTERM)
print(stopping.wait(5), calls)
`;
    expect(runKit(script).stdout.trim().split("\n")).toEqual(["False", "True ['on_stop']"]);
  });
});

describe("models/served_client.py: what a served row sends and accepts", () => {
  it("sends the fixture records' features as the embedded rows compute them, float32 [records, 4]", () => {
    const fixtures = loadFixtures(fixturesDir());
    const script = `
import json
import bench_kit, served_client
records = [json.loads(bytes.fromhex(line.strip()))["record"] for line in sys.stdin if line.strip()]
x = served_client.features([bench_kit.metrics_of(r) for r in records])
print(json.dumps({"dtype": str(x.dtype), "shape": list(x.shape), "features": x.tolist()}))
`;
    const out = JSON.parse(runKit(script, [], fixtures.map((f) => Buffer.from(JSON.stringify(f)))).stdout) as {
      dtype: string; shape: number[]; features: number[][];
    };
    expect(out.dtype).toBe("float32");
    expect(out.shape).toEqual([fixtures.length, 4]);
    out.features.forEach((row, i) => expect(row).toEqual(fixtures[i]!.features.map((f) => Math.fround(f))));
  }, KIT_MS);

  it("takes one FP32 risk per record and refuses any other answer with what came", () => {
    const script = `
import json
import numpy as np
import served_client
def verdict(risks, records):
    try:
        return served_client.check_answer(risks, records, "risk").tolist()
    except served_client.BadAnswer as error:
        return str(error)
print(json.dumps([
    verdict(np.array([[0.25], [0.5]], dtype=np.float32), 2),
    verdict(None, 2),
    verdict(np.array([[0.25], [0.5]], dtype=np.float64), 2),
    verdict(np.array([[0.25, 0.5]], dtype=np.float32), 2),
    verdict(np.array([[0.25]], dtype=np.float32), 2),
]))
`;
    const [good, none, float64, wide, short] = JSON.parse(runKit(script).stdout) as [number[], string, string, string, string];
    expect(good).toEqual([0.25, 0.5]);
    expect(none).toBe("the model server's answer has no output 'risk'");
    expect(float64).toBe("the model server answered 'risk' as float64, not FP32");
    expect(wide).toBe("the model server answered 'risk' of shape [1, 2] for 2 records; expected [2, 1]");
    expect(short).toBe("the model server answered 'risk' of shape [1, 1] for 2 records; expected [2, 1]");
  }, KIT_MS);
});
