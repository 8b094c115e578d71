/**
 * One row's fault stays that row's: an admin error injected into the first row's session (the
 * test seam of row-fault.ts; every other call goes to the real broker) fails that row with its
 * reason, the next row runs on the same broker and bench, and the exit code says a run failed (3).
 */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { requireBootstrap } from "@bench/core/testing";
import { INJECT_ADMIN_ERROR_ENV } from "../../src/row-fault.ts";
import { ALWAYS_ROUNDS } from "../../src/rounds/run-rounds.ts";

const bootstrap = requireBootstrap();

describe("a fault in one row's session", () => {
  it("fails that row with its reason, the next row runs, and the bench exits 3", async () => {
    const results = mkdtempSync(join(tmpdir(), "bench-row-fault-"));
    const done = await execa(
      process.execPath,
      [
        "--import", "tsx", "src/cli.ts",
        "--products", "node,node-passthrough",
        "--rate", "1000", "--warmup", "2", "--window", "5",
        "--bootstrap", bootstrap,
        "--results", results,
      ],
      { cwd: join(import.meta.dirname, "..", ".."), reject: false, all: true, env: { [INJECT_ADMIN_ERROR_ENV]: "node" }, timeout: 600_000 },
    );

    expect(done.exitCode).toBe(3);
    const saved = JSON.parse(readFileSync(join(results, "results.json"), "utf8")) as {
      runs: Array<{ product: string; status: string; reason?: string; ticks: unknown[] }>;
    };
    const node = saved.runs.filter((r) => r.product === "node");
    expect(node).toEqual([expect.objectContaining({ status: "failed", reason: expect.stringContaining("admin error injected") })]);
    const next = saved.runs.filter((r) => r.product === "node-passthrough");
    expect(next).toHaveLength(1);
    expect(next[0]).toEqual(expect.objectContaining({ status: "ok" }));
    expect(next[0]?.ticks.length).toBeGreaterThan(0);
    expect(done.all).toContain("== node: failed — admin error injected");
  }, 660_000);

  it("in the main command: fails that row, the next row is searched and measured in its rounds at the load share, and the bench exits 3", async () => {
    const results = mkdtempSync(join(tmpdir(), "bench-row-fault-main-"));
    const done = await execa(
      process.execPath,
      ["--import", "tsx", "src/cli.ts", "--products", "node,node-passthrough", "--budget", "1", "--no-profile", "--bootstrap", bootstrap, "--results", results],
      { cwd: join(import.meta.dirname, "..", ".."), reject: false, all: true, env: { [INJECT_ADMIN_ERROR_ENV]: "node" }, timeout: 900_000 },
    );

    expect(done.exitCode).toBe(3);
    const saved = JSON.parse(readFileSync(join(results, "results.json"), "utf8")) as {
      runs: Array<{ product: string; status: string; reason?: string; round?: number; loadShare?: number; settings: { offeredRate: number } }>;
      sweeps: Array<{ product: string; knee?: number }>;
      rounds: { loadShare: number; order: string[][] };
    };
    expect(saved.runs.filter((r) => r.product === "node")).toEqual([
      expect.objectContaining({ status: "failed", reason: expect.stringContaining("admin error injected") }),
    ]);
    const search = saved.sweeps.find((s) => s.product === "node-passthrough");
    expect(search).toBeDefined();
    expect(saved.rounds.loadShare).toBe(0.7);
    // A knee found (a busy machine can leave none): the rounds that always run, each a session of its own, all at the share,
    // and the make-up round when a busy machine scattered them (its rows are the rounds' own decision, tested in run-rounds.test.ts).
    if (search?.knee !== undefined) {
      const rounds = saved.runs.filter((r) => r.product === "node-passthrough" && r.round !== undefined);
      const always = rounds.filter((r) => r.round! <= ALWAYS_ROUNDS);
      expect(always.map((r) => [r.round, r.loadShare])).toEqual(Array.from({ length: ALWAYS_ROUNDS }, (_, i) => [i + 1, 0.7]));
      expect(rounds.filter((r) => r.round! > ALWAYS_ROUNDS).map((r) => [r.round, r.loadShare])).toEqual(
        rounds.length > ALWAYS_ROUNDS ? [[ALWAYS_ROUNDS + 1, 0.7]] : [],
      );
      expect(rounds[0]!.settings.offeredRate).toBeLessThan(search.knee);
    }
    expect(done.all).toContain("== node: failed — admin error injected");
    expect(readFileSync(join(results, "page.md"), "utf8")).toContain("## Which costs least");
  }, 960_000);
});
