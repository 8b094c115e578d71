import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { progressCounter, readProgress } from "./progress-file.ts";

describe("the Spark app's progress file", () => {
  const dir = mkdtempSync(join(tmpdir(), "spark-progress-"));
  const file = join(dir, "progress.json");
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("reads 0 consumed before the first micro-batch has reported", async () => {
    expect(readProgress(file)).toBeUndefined();
    expect(await progressCounter(file).read()).toBe(0);
  });

  it("reads the end offset the listener wrote", async () => {
    writeFileSync(file, JSON.stringify({ consumed: 282, batch: 3, rows: 14, skipped: 2 }));
    expect(readProgress(file)).toEqual({ consumed: 282, batch: 3, rows: 14, skipped: 2 });
    expect(await progressCounter(file).read()).toBe(282);
  });

  it("takes a file that is not a progress state as no progress", () => {
    writeFileSync(file, "{");
    expect(readProgress(file)).toBeUndefined();
    writeFileSync(file, JSON.stringify({ batch: 1 }));
    expect(readProgress(file)).toBeUndefined();
  });
});
