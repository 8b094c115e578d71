import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readResults } from "../results/files.ts";
import { parseOtherMachine, parseSuppliedSpecs, renderCommand, withSuppliedSides } from "./command.ts";
import { writeHtmlPage } from "./html/command.ts";
import { renderPage } from "./render.ts";

const fixture = join(import.meta.dirname, "__fixtures__", "results.json");

describe("render -o into a folder that does not exist yet", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "render-out-"));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("makes the folder and writes page.md there", () => {
    const out = join(dir, "results", "2026-12-02", "page.md");
    renderCommand(readResults([fixture]), out);
    expect(readFileSync(out, "utf8")).toBe(renderPage(readResults([fixture])));
  });

  it("makes the folder for page.html too", () => {
    const out = join(dir, "elsewhere", "page.html");
    writeHtmlPage(out, readResults([fixture]));
    expect(readFileSync(out, "utf8")).toMatch(/^<!doctype html>/i);
  });
});

describe("render --supplied: one probe's readings for a side, by its label", () => {
  const results = readResults([fixture]);
  const others = [{ label: "intel-xeon", results }];

  it("puts each side's readings on that side's runs only", () => {
    const supplied = parseSuppliedSpecs(["here:cpython=2935ns", "intel-xeon:cpython=2318ns,jvm=400000"], ["intel-xeon"]);
    const sides = withSuppliedSides(results, others, supplied);
    const first = (r: typeof results) => r.runs[0]?.yardstick?.before;
    expect(first(sides.here)?.cpython?.recordsPerCpuSecond).toBeCloseTo(1e9 / 2935);
    expect(first(sides.here)?.jvm).toBeUndefined();
    expect(first(sides.others[0]!.results)?.cpython?.recordsPerCpuSecond).toBeCloseTo(1e9 / 2318);
    expect(first(sides.others[0]!.results)?.jvm?.recordsPerCpuSecond).toBe(400000);
    expect(results.runs[0]?.yardstick?.before.cpython?.runtime ?? "").not.toMatch(/supplied/);
  });

  it("refuses a side that is neither here nor a --compare label, naming the ones there are", () => {
    expect(() => parseSuppliedSpecs(["intel:cpython=2318ns"], ["intel-xeon"])).toThrow(/here:" or one of the --compare labels \(intel-xeon\)/);
    expect(() => parseSuppliedSpecs(["cpython=2318ns"], [])).toThrow(/name the side first/);
    expect(() => parseSuppliedSpecs(["here:python=2318ns"], [])).toThrow(/not a runtime reading: python=2318ns/);
  });

  it("reads several results files of one other machine as one, as render reads its own", () => {
    const older = join(import.meta.dirname, "__fixtures__", "results-schema2.json");
    const other = parseOtherMachine(`two=${older},${fixture}`);
    expect(other.label).toBe("two");
    expect(other.results).toEqual(readResults([older, fixture]));
  });

  it("hands each path alone to the path resolver (userPath's second parameter is the environment, not an index)", () => {
    const calls: unknown[][] = [];
    parseOtherMachine(`two=${fixture},${fixture}`, (...args: string[]) => {
      calls.push(args);
      return args[0] as string;
    });
    expect(calls).toEqual([[fixture], [fixture]]);
  });
});
