import { loadGateRecords } from "./gate-records.ts";
import { fixturesDir } from "./paths.ts";
import { findingNotes, misreadSeqs, poisonFindingNotes, productNotes } from "./spelling-findings.ts";

const fixtures = loadGateRecords(fixturesDir());
const findings = {
  y_object_duplicated_key: { outcome: "misread" as const, why: "its parser reads the first of a repeated key; setting x = y reads the last." },
};

describe("a row's spelling findings", () => {
  it("print under the row's own notes, each naming the case, the suite file it comes from, the outcome and why", () => {
    expect(productNotes({ notes: ["a standing note"], spellingFindings: findings })).toEqual([
      "a standing note",
      `JSON FINDING — the gate's spelling case "y_object_duplicated_key" (JSONTestSuite's must-accept y_object_duplicated_key.json) is misread: its parser ` +
        `reads the first of a repeated key; setting x = y reads the last.`,
    ]);
    expect(productNotes({})).toEqual([]);
  });

  it("name only existing cases", () => {
    expect(() => findingNotes({ "no-such-case": findings.y_object_duplicated_key })).toThrow('a spelling finding names no spelling case: "no-such-case"');
  });

  it("give the audit the misread cases' sequence numbers, which it does not re-score", () => {
    expect(misreadSeqs(findings, fixtures)).toEqual(new Set([280]));
    expect(misreadSeqs(undefined, fixtures)).toEqual(new Set());
  });
});

describe("a row's declared readings of must-refuse cases", () => {
  it("print as notes after the spelling findings, in the cases' order, and a name no case has throws", () => {
    const notes = productNotes({
      notes: ["own note"],
      poisonFindings: { top_level_array_of_record: { outcome: "scored", why: "it reads arrays as rows" } },
    });
    expect(notes).toEqual([
      "own note",
      "JSON FINDING — the gate's must-refuse case \"top_level_array_of_record\" (a top-level array holding one complete record object) is scored: " +
        "it reads arrays as rows",
    ]);
    expect(() => poisonFindingNotes({ no_such_case: { outcome: "scored", why: "x" } })).toThrow(/names no must-refuse case/);
  });
});
