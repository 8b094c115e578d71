import { existsSync } from "node:fs";
import { bytewax, bytewaxRunArgs, CONSUMED_DESCRIBE, SNAPSHOT_INTERVAL_S } from "./product.ts";

describe("the bytewax row", () => {
  it("runs the app with Bytewax's own CLI: one worker, recovery in the given folder, a snapshot a second", () => {
    const args = bytewaxRunArgs("/run/bytewax-state/recovery");
    expect(args.slice(0, 2)).toEqual(["-m", "bytewax.run"]);
    const [app, flow] = (args[2] as string).split(":");
    expect(existsSync(app as string)).toBe(true);
    expect(flow).toBe("build_flow()");
    const flag = (name: string): string | undefined => args[args.indexOf(name) + 1];
    expect(flag("--workers-per-process")).toBe("1");
    expect(flag("--recovery-directory")).toBe("/run/bytewax-state/recovery");
    expect(flag("--snapshot-interval")).toBe(String(SNAPSHOT_INTERVAL_S));
    expect(SNAPSHOT_INTERVAL_S).toBe(1);
    expect(flag("--backup-interval")).toBe("0");
  });

  it("reads consumed from its engine counter and claims no loss under kill -9 (recovery replays, the sink flushes every batch)", () => {
    expect(bytewax.lossUnderKill).toBeUndefined();
    expect(bytewax.row.delivery).toMatch(/^at-least-once/);
    expect(bytewax.notes?.some((n) => n.startsWith("Consumed: Bytewax commits no consumer group"))).toBe(true);
    expect(bytewax.ci).toEqual({ rate: 5000 });
  });

  it("names its counter file on the page by its name, never by the path of the machine that ran it", () => {
    expect(CONSUMED_DESCRIBE).toContain("written by the app once a second to consumed in the run's state folder");
    expect(CONSUMED_DESCRIBE).not.toMatch(/\//);
  });
});
