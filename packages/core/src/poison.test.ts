import { POISON_KINDS, poisonSchedule } from "./poison.ts";

describe("poisonSchedule", () => {
  const opts = { seed: 42, rounds: 3, firstSeq: 1000, span: 5000 };

  it("is the same schedule, byte for byte, for the same seed", () => {
    const a = poisonSchedule(opts);
    const b = poisonSchedule(opts);
    expect(b.map((p) => [p.kind, p.beforeSeq, p.value.toString("hex")])).toEqual(a.map((p) => [p.kind, p.beforeSeq, p.value.toString("hex")]));
  });

  it("differs for another seed", () => {
    const a = poisonSchedule(opts).map((p) => p.beforeSeq);
    const b = poisonSchedule({ ...opts, seed: 43 }).map((p) => p.beforeSeq);
    expect(b).not.toEqual(a);
  });

  it("places each kind once per round at distinct, ordered positions in the span", () => {
    const pills = poisonSchedule(opts);
    expect(pills).toHaveLength(POISON_KINDS.length * 3);
    for (const kind of POISON_KINDS) expect(pills.filter((p) => p.kind === kind)).toHaveLength(3);
    const seqs = pills.map((p) => p.beforeSeq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    expect(Math.min(...seqs)).toBeGreaterThanOrEqual(1000);
    expect(Math.max(...seqs)).toBeLessThan(6000);
  });

  it("makes pills that a strict reader refuses", () => {
    for (const pill of poisonSchedule(opts)) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(pill.value.toString("utf8"));
      } catch {
        continue; // not JSON at all: refused
      }
      const ok =
        parsed !== null &&
        typeof parsed === "object" &&
        !Array.isArray(parsed) &&
        ["latency_ms", "queue_depth", "cpu_usage", "error_count", "ts_ms"].every((k) => Number.isFinite((parsed as Record<string, unknown>)[k]));
      expect({ kind: pill.kind, ok }).toEqual({ kind: pill.kind, ok: false });
    }
  });

  it("refuses a span too small for its pills", () => {
    expect(() => poisonSchedule({ seed: 1, rounds: 2, firstSeq: 0, span: 13 })).toThrow(/do not fit/);
  });
});
