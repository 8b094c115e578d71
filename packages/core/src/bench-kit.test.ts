/**
 * The Python apps' shared kit (models/bench_kit.py) against the same vectors the gate and the
 * faults run use: every committed spelling case is a record it can score, every poison pill
 * kind is one it skips with a reason. Run by Debian's python3.11, the interpreter of the rows.
 */
import { execFileSync } from "node:child_process";
import { DEBIAN_PYTHON } from "./debian-torch.ts";
import { loadSpellings } from "./spellings.ts";
import { fixturesDir, modelsDir } from "./paths.ts";
import { POISON_KINDS, poisonValue } from "./poison.ts";

/** Each value decoded as an app decodes it (UTF-8 JSON, a failure is None), then judged by the kit. */
const JUDGE = `
import json, sys
sys.path.insert(0, sys.argv[1])
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
  const stdout = execFileSync(DEBIAN_PYTHON, ["-c", JUDGE, modelsDir()], { input: values.map((v) => v.toString("hex")).join("\n") + "\n", encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  return stdout.trim().split("\n").map((line) => JSON.parse(line));
}

describe("models/bench_kit.py", () => {
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
    verdicts.forEach((v, i) => expect({ kind: POISON_KINDS[i], skipped: typeof v.problem === "string" && v.problem.length > 0 }).toEqual({ kind: POISON_KINDS[i], skipped: true }));
  });
});
