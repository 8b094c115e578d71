import { countingRun } from "./__fixtures__/counting-run.ts";
import { sanitySection } from "./tables.ts";

describe("the sanity table's verified column", () => {
  it("counts the fixtures, and the row's declared JSON findings beside them (named in its notes)", () => {
    const verification = { passed: true, checked: 315, fixtures: 315, maxError: 0 };
    const rows = [countingRun("plain", 1000, 10, { verification }), countingRun("flink", 1000, 10, { verification: { ...verification, declared: ["y_object_duplicated_key"] } })];
    const text = sanitySection(rows, 1e-5).join("\n");
    expect(text).toMatch(/\| plain \| [^\n]*\| 315\/315 \|/);
    expect(text).toMatch(/\| flink \| [^\n]*\| 315\/315 \(1 JSON finding, see notes\) \|/);
  });
});
