/** The page's row label (page/rows.ts productLabel) reads the version by the run's family, never by a piece of its id. */
import { productLabel } from "./page/rows.ts";
import type { RunResult } from "./results/types.ts";

const run = (
  product: string,
  versions: Record<string, string>,
  family?: string,
): RunResult => ({ product, versions, ...(family ? { family } : {}) }) as RunResult;

describe("productLabel", () => {
  it("takes the row's own version first", () => {
    expect(productLabel(run("engine", { engine: "2.0", python: "3.11.2" }))).toBe("engine 2.0");
  });

  it("takes the family's version for a row that names one, whatever its id looks like", () => {
    expect(productLabel(run("ceiling", { engine: "2.0" }, "engine"))).toBe("ceiling 2.0");
    expect(productLabel(run("engine-variant", { other: "1.0", engine: "2.0" }, "other"))).toBe("engine-variant 1.0");
  });

  it("reads results written before runs kept their family by the entry whose name prefixes the id", () => {
    expect(productLabel(run("engine-variant", { python: "3.11.2", engine: "2.0" }))).toBe("engine-variant 2.0");
  });

  it("is the id alone when no version names the row", () => {
    expect(productLabel(run("engine", { python: "3.11.2" }))).toBe("engine");
  });
});
