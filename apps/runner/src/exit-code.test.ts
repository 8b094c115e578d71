import { EXIT, exitCodeFor } from "./exit-code.ts";
import type { RunResult } from "./results/types.ts";

const run = (status: RunResult["status"], noisy = false): RunResult =>
  ({ product: "p", status, ...(noisy ? { conditions: { noisy: true } } : {}) }) as unknown as RunResult;

describe("the bench's exit code", () => {
  it("is 0 when every run that ran is valid and quiet; a skipped row does not change it", () => {
    expect(exitCodeFor([run("ok"), run("skipped")], false)).toBe(EXIT.ok);
  });
  it("is 3 when any row was invalid or failed, whatever else", () => {
    expect(exitCodeFor([run("ok"), run("invalid"), run("ok", true)], false)).toBe(3);
    expect(exitCodeFor([run("failed")], false)).toBe(3);
  });
  it("is 4 when every run is valid but one was noisy", () => {
    expect(exitCodeFor([run("ok"), run("ok", true)], false)).toBe(4);
  });
  it("is 130 when interrupted", () => {
    expect(exitCodeFor([run("invalid")], true)).toBe(130);
  });
});
