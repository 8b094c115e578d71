import type { Prepared, Product } from "@bench/core";
import type { BenchContext } from "../run/context.ts";
import { runBrokerRestart, type BrokerRestartSettings } from "./broker-restart.ts";

const product = { id: "node", row: { delivery: "at-least-once" } } as unknown as Product;
const prepared = { ok: true, versions: { node: "20" } } as unknown as Prepared;
const settings: BrokerRestartSettings = {
  rate: 1000,
  warmupSec: 6,
  windowSec: 20,
  parallelism: 1,
  seed: 42,
  drainTimeoutSec: 60,
  hangSec: 30,
  hard: true,
  downSec: 5,
  recoveryLimitSec: 120,
};

describe("runBrokerRestart", () => {
  it("does not run against a broker the runner did not start, and says why, touching nothing", async () => {
    const untouchable = new Proxy(
      {},
      { get: (_t, key) => (key === "restartBroker" ? undefined : () => { throw new Error(`touched ${String(key)}`); }) },
    ) as BenchContext;
    const run = await runBrokerRestart(product, prepared, settings, untouchable);
    expect(run).toMatchObject({ product: "node", variant: "hard", status: "not-run", delivery: "at-least-once", ticks: [] });
    expect(run.reason).toContain("--bootstrap");
  });
});
