import { POISON_KINDS, poisonSchedule, REFUSAL_CASES, refusalPills } from "./poison.ts";

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

  it("the must-refuse cases are text a strict reader refuses: no top-level object, or a number JSON does not allow", () => {
    for (const c of REFUSAL_CASES) {
      let parsed: unknown;
      try {
        parsed = JSON.parse(c.value.toString("utf8"));
      } catch {
        continue;
      }
      expect({ name: c.name, object: parsed !== null && typeof parsed === "object" && !Array.isArray(parsed) }).toEqual({ name: c.name, object: false });
    }
    // Each n_number case is a complete record but for its one number: the number alone is why it is refused.
    const numberCase = REFUSAL_CASES.find((c) => c.name === "n_number_-01")!.value.toString("utf8");
    expect(JSON.parse(numberCase.replace('"latency_ms":-01', '"latency_ms":-1'))).toMatchObject({ event_id: expect.stringMatching(/^p\d+$/), latency_ms: -1 });
    const inArray = JSON.parse(REFUSAL_CASES.find((c) => c.name === "top_level_array_of_record")!.value.toString("utf8")) as unknown[];
    expect(inArray).toHaveLength(1);
    expect(Object.keys(inArray[0] as object)).toHaveLength(19);
    expect(new Set(REFUSAL_CASES.map((c) => c.name)).size).toBe(REFUSAL_CASES.length);
  });

  it("places the must-refuse cases within the span, less the ones a row declares it reads", () => {
    const all = refusalPills(1, 255);
    expect(all).toHaveLength(REFUSAL_CASES.length);
    for (const p of all) expect(p.beforeSeq >= 1 && p.beforeSeq < 256).toBe(true);
    const less = refusalPills(1, 255, new Set(["top_level_array_of_record"]));
    expect(less.map((p) => p.refusal)).toEqual(REFUSAL_CASES.map((c) => c.name).filter((n) => n !== "top_level_array_of_record"));
  });

  it("refuses a span too small for its pills", () => {
    expect(() => poisonSchedule({ seed: 1, rounds: 2, firstSeq: 0, span: 13 })).toThrow(/do not fit/);
  });
});
