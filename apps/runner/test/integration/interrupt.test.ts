/**
 * Ctrl-C / SIGTERM in the middle of a run: every child process ends, the results so far are
 * written, the page is rendered, and the runner exits 130.
 */
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { processTree } from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";

const bootstrap = requireBootstrap();

describe("interrupting the bench", () => {
  let runner: ReturnType<typeof execa> | undefined;
  // A failed assertion before the SIGTERM must not leave the bench (and its broker clients) running.
  afterAll(() => {
    if (runner && runner.exitCode === undefined) runner.kill("SIGKILL");
  });

  it("ends every child, keeps the results and exits 130", async () => {
    const results = mkdtempSync(join(tmpdir(), "bench-int-"));
    runner = execa(
      process.execPath,
      [
        "--import",
        "tsx",
        "src/cli.ts",
        "--products",
        "node",
        "--rate",
        "2000",
        "--warmup",
        "2",
        "--window",
        "60",
        "--bootstrap",
        bootstrap,
        "--results",
        results,
      ],
      { cwd: join(import.meta.dirname, "..", ".."), reject: false, all: true },
    );
    let output = "";
    let descendants: number[] = [];
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the run never started:\n${output}`)), 120_000);
      runner?.all?.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("== node: 2000/s")) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    // gendata starts after the verification and the speed index (seconds on a loaded machine):
    // wait until it and the product are both running, rather than for a fixed time.
    const pid = runner.pid as number;
    const children = (): number[] => processTree([pid]).map((p) => p.pid).filter((p) => p !== pid);
    for (let waited = 0; children().length < 2 && waited < 90_000; waited += 250) await new Promise((r) => setTimeout(r, 250));
    await new Promise((r) => setTimeout(r, 2000)); // into the run, not at its first instant
    descendants = children();
    expect(descendants.length).toBeGreaterThanOrEqual(2);
    runner.kill("SIGTERM");
    const done = await runner;

    expect(done.exitCode).toBe(130);
    expect(done.all).toContain("interrupted by SIGTERM");
    const saved = JSON.parse(readFileSync(join(results, "results.json"), "utf8")) as { runs: Array<{ product: string; status: string; reason: string }> };
    expect(saved.runs).toEqual([expect.objectContaining({ product: "node", status: "failed", reason: "interrupted by SIGTERM" })]);
    expect(existsSync(join(results, "page.md"))).toBe(true);
    expect(readFileSync(join(results, "page.html"), "utf8")).toContain("<h1>Model Inference</h1>");
    for (const f of ["ticks.arrow", "runs.arrow", "sweep-steps.arrow"]) expect(existsSync(join(results, f))).toBe(true);
    const survivors = descendants.filter((pid) => {
      try {
        const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
        return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
      } catch {
        return false;
      }
    });
    expect(survivors).toEqual([]);
  }, 180_000);
});
