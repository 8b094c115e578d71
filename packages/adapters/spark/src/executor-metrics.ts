/**
 * Executors' CPU and memory when they run on a Spark cluster, where /proc on this machine cannot
 * see them: each executor's metrics system sends its gauges every second to a StatsD sink
 * (Spark's own org.apache.spark.metrics.sink.StatsdSink, configured by the app), and this UDP
 * listener keeps the last value per executor. CPU is the JVMCPU source's `jvmCpuTime` (the
 * executor JVM's process CPU time in ns, OperatingSystemMXBean.getProcessCpuTime); memory is the
 * ExecutorMetrics source's process-tree RSS (JVM + Python workers + other children, with
 * spark.executor.processTreeMetrics.enabled). Spark reports no CPU for the Python workers an
 * executor forks: their CPU is not in this figure.
 */
import { createSocket, type Socket } from "node:dgram";

// Spark's JVMCPUSource, registered in every executor: OperatingSystemMXBean.getProcessCpuTime.
const CPU = "JVMCPU.jvmCpuTime";
const RSS = /^ExecutorMetrics\.ProcessTree(JVM|Python|Other)RSSMemory$/;

interface Executor {
  cpuNanos: number;
  rss: Map<string, number>;
}

/** Folds StatsD lines ("<app>.<executor>.JVMCPU.jvmCpuTime:123|g") into per-executor values. */
export class ExecutorGauges {
  readonly executors = new Map<string, Executor>();
  /** Packets received, and the last one (what Spark sends, when a figure is missing). */
  packets = 0;
  lastPacket = "";

  add(packet: string): void {
    this.packets++;
    this.lastPacket = packet;
    for (const line of packet.split("\n")) {
      const m = /^(.*):(-?[\d.eE+-]+)\|g$/.exec(line.trim());
      if (!m) continue;
      const name = m[1] as string;
      const value = Number(m[2]);
      if (!Number.isFinite(value)) continue;
      const parts = name.split(".").filter((p) => p !== "");
      // <app id>.<executor id>.<source>.<metric>
      if (parts.length < 4) continue;
      const metric = parts.slice(-2).join(".");
      const executorId = parts[parts.length - 3] as string;
      if (metric === CPU) this.executor(executorId).cpuNanos = value;
      else if (RSS.test(metric)) this.executor(executorId).rss.set(metric, value);
    }
  }

  /** CPU seconds over every executor seen (a finished executor keeps its last reading). */
  cpuSeconds(): number {
    let nanos = 0;
    for (const e of this.executors.values()) nanos += e.cpuNanos;
    return nanos / 1e9;
  }

  /** The last process-tree RSS over every executor, undefined before any was reported. */
  rssBytes(): number | undefined {
    let bytes = 0;
    let seen = false;
    for (const e of this.executors.values()) {
      for (const v of e.rss.values()) {
        bytes += v;
        seen = true;
      }
    }
    return seen ? bytes : undefined;
  }

  private executor(id: string): Executor {
    let e = this.executors.get(id);
    if (!e) {
      e = { cpuNanos: 0, rss: new Map() };
      this.executors.set(id, e);
    }
    return e;
  }
}

/** A StatsD listener on `host` (a free port); close() when the product stops. */
export async function listenForExecutors(host: string): Promise<{ port: number; gauges: ExecutorGauges; close(): void }> {
  const gauges = new ExecutorGauges();
  const socket: Socket = createSocket("udp4");
  socket.on("message", (msg) => gauges.add(msg.toString("utf8")));
  await new Promise<void>((resolve, reject) => {
    socket.once("error", reject);
    socket.bind(0, host, () => resolve());
  });
  socket.unref();
  return { port: socket.address().port, gauges, close: () => socket.close() };
}

export const EXECUTOR_METRICS_DESCRIBE =
  "Spark's own metrics from each executor every second (StatsdSink): CPU = the JVMCPU source's jvmCpuTime (executor JVM process CPU; the Python workers' CPU " +
    "is not reported by Spark and is not included), memory = ExecutorMetrics ProcessTree{JVM,Python,Other}RSSMemory " +
    "(spark.executor.processTreeMetrics.enabled)";
