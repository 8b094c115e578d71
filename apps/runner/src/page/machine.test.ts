import { join } from "node:path";
import { readResults } from "../results/files.ts";
import { hostLine, machineSection } from "./machine.ts";

const fixtures = join(import.meta.dirname, "__fixtures__");

describe("the machine on the page", () => {
  it("names the host and how quiet it was in one line, from the runs' own conditions", () => {
    const results = readResults([join(fixtures, "results-schema2.json")]);
    const line = hostLine(results);
    expect(line.split("\n")).toHaveLength(1);
    expect(line).toContain(`Host: ${results.host.cpu}, ${results.host.cores} cores`);
    const judged = results.runs.filter((r) => r.conditions);
    const noisy = judged.filter((r) => r.conditions!.noisy).length;
    expect(line).toContain(`${noisy} of ${judged.length} runs noisy`);
  });

  it("says when the results predate the foreign-load accounting rather than call the host quiet", () => {
    const results = readResults([join(fixtures, "results.json")]);
    expect(hostLine(results)).toContain("how quiet it was is not recorded");
  });

  it("says a file of fault scenarios alone takes no readings, rather than that it predates them", () => {
    const results = { ...readResults([join(fixtures, "results-schema2.json")]), runs: [] };
    for (const text of [hostLine(results), machineSection(results).join("\n")]) {
      expect(text).toContain("no speed or foreign-load readings: these scenarios are audited for what they lose");
      expect(text).not.toMatch(/predate|older speed index/);
    }
  });

  it("gives a file of fault scenarios alone no run rules and no pointer to a speed index it does not have", () => {
    const results = { ...readResults([join(fixtures, "results-schema2.json")]), runs: [] };
    expect(hostLine(results)).not.toContain("follow the answer");
    expect(machineSection(results).join("\n")).not.toContain("A run is noisy");
  });

  it("puts the speed index and the run rules under their own heading", () => {
    const results = readResults([join(fixtures, "results-schema2.json")]);
    const section = machineSection(results);
    expect(section[0]).toBe("## The machine");
    expect(section.join("\n")).toContain("A run is noisy, and never a result");
  });
});
