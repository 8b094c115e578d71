import { createSocket } from "node:dgram";
import { ExecutorGauges, listenForExecutors } from "./executor-metrics.ts";

describe("executor gauges from Spark's StatsD sink", () => {
  // Lines as Spark 4.2.0's StatsdSink sent them from an executor of the cluster test.
  it("keeps the last jvmCpuTime and process-tree RSS per executor and sums them", () => {
    const g = new ExecutorGauges();
    g.add("app-20261201180000-0000.0.JVMCPU.jvmCpuTime:1500000000|g\napp-20261201180000-0000.0.executor.threadpool.activeTasks:1|g");
    g.add("app-20261201180000-0000.0.JVMCPU.jvmCpuTime:2500000000|g");
    g.add("app-20261201180000-0000.1.JVMCPU.jvmCpuTime:500000000|g");
    expect(g.cpuSeconds()).toBeCloseTo(3, 9);
    expect(g.rssBytes()).toBeUndefined();
    g.add(
      "app-20261201180000-0000.0.ExecutorMetrics.ProcessTreeJVMRSSMemory:300|g\napp-20261201180000-0000.0.ExecutorMetrics.ProcessTreePythonRSSMemory:200|g",
    );
    g.add("app-20261201180000-0000.0.ExecutorMetrics.ProcessTreePythonRSSMemory:250|g\napp-20261201180000-0000.0.ExecutorMetrics.JVMHeapMemory:999|g");
    expect(g.rssBytes()).toBe(550);
  });

  it("ignores lines that are not gauges or not an executor's", () => {
    const g = new ExecutorGauges();
    g.add("garbage\napp.0.JVMCPU.jvmCpuTime:12|c\njvmCpuTime:5|g\n");
    expect(g.executors.size).toBe(0);
    expect(g.cpuSeconds()).toBe(0);
  });

  it("receives packets on its UDP port", async () => {
    const listener = await listenForExecutors("127.0.0.1");
    const client = createSocket("udp4");
    await new Promise<void>(
      (resolve, reject) => client.send("app-1.0.JVMCPU.jvmCpuTime:4000000000|g", listener.port, "127.0.0.1", (e) => (e ? reject(e) : resolve())),
    );
    const deadline = Date.now() + 5000;
    while (listener.gauges.cpuSeconds() === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    client.close();
    listener.close();
    expect(listener.gauges.cpuSeconds()).toBe(4);
  });
});
