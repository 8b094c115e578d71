import { EXIT, exitCodeFor } from "./exit-code.ts";
import type { BrokerRestartResult, FaultResult, RunResult, ServerKillResult } from "./results/types.ts";

const run = (status: RunResult["status"], noisy = false, rate = 1000): RunResult =>
  ({ product: "p", status, settings: { offeredRate: rate }, ...(noisy ? { conditions: { noisy: true } } : {}) }) as unknown as RunResult;

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
  it("is 0 when a noisy sweep step was run again quietly at the same rate, 4 when the quiet run was at another rate", () => {
    expect(exitCodeFor([run("ok", true), run("ok")], false)).toBe(EXIT.ok);
    expect(exitCodeFor([run("ok", true, 2000), run("ok", false, 1000)], false)).toBe(EXIT.noisy);
    expect(exitCodeFor([run("ok", true), run("ok", true)], false)).toBe(EXIT.noisy);
  });
  it("is 1 when the broker could not be reached mid-bench, 3 for a row that failed with it still answering, 5 when a loss was found first", () => {
    expect(exitCodeFor([run("ok"), run("failed")], false, [], [], "at-least-once", true)).toBe(EXIT.couldNotRun);
    expect(exitCodeFor([run("ok"), run("failed")], false, [], [], "at-least-once", false)).toBe(EXIT.failedOrInvalid);
    const lossy = { product: "p", status: "ok", tally: { lost: 4 } } as unknown as FaultResult;
    expect(exitCodeFor([run("failed")], false, [lossy], [], "at-least-once", true)).toBe(EXIT.faultLoss);
  });
  it("is 130 when interrupted", () => {
    expect(exitCodeFor([run("invalid")], true)).toBe(130);
  });
  it("is 5 when a fault run lost records, 3 when one failed, 0 when every fault run kept every record", () => {
    const fault = (status: FaultResult["status"], lost?: number): FaultResult =>
      ({ product: "p", status, ...(lost !== undefined ? { tally: { lost } } : {}) }) as unknown as FaultResult;
    expect(exitCodeFor([], false, [fault("ok", 0), fault("ok", 12)])).toBe(EXIT.faultLoss);
    expect(exitCodeFor([], false, [fault("ok", 3), fault("failed")])).toBe(5);
    expect(exitCodeFor([], false, [fault("ok", 0), fault("failed")])).toBe(3);
    expect(exitCodeFor([], false, [fault("ok", 0)])).toBe(0);
    // Not drained: what is missing may still come, so it is invalid (3), not a loss (5).
    expect(exitCodeFor([], false, [fault("invalid", 5000)])).toBe(3);
    expect(exitCodeFor([], true, [fault("ok", 3)])).toBe(130);
  });
  it("is 5 when a broker restart lost records, 3 when one failed; a broker not the bench's to restart, or a product the bench had to restart, changes " +
    "nothing", () => {
    const restart = (status: BrokerRestartResult["status"], lost?: number, recovered?: BrokerRestartResult["recovered"]): BrokerRestartResult =>
      ({ product: "p", status, ...(lost !== undefined ? { tally: { lost } } : {}), ...(recovered ? { recovered } : {}) }) as unknown as BrokerRestartResult;
    expect(exitCodeFor([], false, [], [restart("ok", 0), restart("ok", 7)])).toBe(EXIT.faultLoss);
    expect(exitCodeFor([], false, [], [restart("ok", 0), restart("failed")])).toBe(EXIT.failedOrInvalid);
    expect(exitCodeFor([], false, [], [restart("not-run"), restart("ok", 0, "restarted")])).toBe(EXIT.ok);
  });
  it("is 5 when a model server kill lost records, 3 when one failed or did not drain; a user's server not killed changes nothing", () => {
    const kill = (status: ServerKillResult["status"], lost?: number): ServerKillResult =>
      ({ product: "p", status, ...(lost !== undefined ? { tally: { lost, duplicated: 0 } } : {}) }) as unknown as ServerKillResult;
    expect(exitCodeFor([], false, [], [kill("ok", 0), kill("ok", 4)])).toBe(EXIT.faultLoss);
    expect(exitCodeFor([], false, [], [kill("ok", 0), kill("failed")])).toBe(EXIT.failedOrInvalid);
    expect(exitCodeFor([], false, [], [kill("invalid", 900)])).toBe(EXIT.failedOrInvalid);
    expect(exitCodeFor([], false, [], [kill("not-run"), kill("ok", 0)])).toBe(EXIT.ok);
  });
  it("is 5 under exactly-once when a fault run duplicated a record read-committed; at-least-once, duplicates are the claim kept", () => {
    const fault = (duplicated: number): FaultResult => ({ product: "p", status: "ok", tally: { lost: 0, duplicated } }) as unknown as FaultResult;
    expect(exitCodeFor([], false, [fault(0), fault(2)], [], "exactly-once")).toBe(EXIT.faultLoss);
    expect(exitCodeFor([], false, [fault(0), fault(2)], [], "at-least-once")).toBe(EXIT.ok);
    expect(exitCodeFor([], false, [fault(0)], [], "exactly-once")).toBe(EXIT.ok);
  });
});
