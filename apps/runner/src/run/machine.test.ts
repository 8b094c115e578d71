import { spawn } from "node:child_process";
import { parseMachineCpu, type ProcStat } from "@bench/core";
import { cpuTicksBetween, MachineWatch, stealPercent } from "./machine.ts";

const table = (rows: Array<[pid: number, ppid: number, cpuTicks: number]>): Map<number, ProcStat> =>
  new Map(rows.map(([pid, ppid, cpuTicks]) => [pid, { pid, ppid, cpuTicks }]));

describe("foreign load from two readings of the process table", () => {
  // pid 1 init; 100 the runner; 200 the product (201 its worker); 300 gendata; 400 the broker;
  // 500 a stranger (a build, say); 600 a stranger that started between the readings.
  const before = table([[1, 0, 10], [100, 1, 500], [200, 100, 1000], [201, 200, 300], [300, 100, 50], [400, 1, 900], [500, 1, 2000]]);
  const after = table([[1, 0, 11], [100, 1, 510], [200, 100, 1090], [201, 200, 390], [300, 100, 80], [400, 1, 930], [500, 1, 2035], [600, 500, 7]]);
  const ours = new Set([100, 200, 201, 300, 400]);

  it("counts every process outside the product and the harness, newcomers whole", () => {
    expect(cpuTicksBetween(before, after, ours)).toBe(1 + 35 + 7);
  });

  it("counts one part of the harness when given only its processes", () => {
    expect(cpuTicksBetween(before, table([[300, 100, 80]]), new Set())).toBe(30);
  });

  it("never counts a reused pid as negative time", () => {
    expect(cpuTicksBetween(table([[700, 1, 5000]]), table([[700, 1, 12]]), new Set())).toBe(0);
  });
});

describe("steal from /proc/stat", () => {
  const stat = (steal: number, idle: number): string =>
    `cpu  1000 0 500 ${idle} 10 0 20 ${steal} 0 0\ncpu0 500 0 250 ${idle / 2} 5 0 10 ${steal / 2} 0 0\nintr 1 2 3\n`;

  it("reads busy, steal and total from the aggregate line", () => {
    expect(parseMachineCpu(stat(30, 8000))).toEqual({ busy: 1000 + 500 + 20 + 30, steal: 30, total: 1550 + 8000 + 10 });
  });

  it("is the steal ticks over the interval, 100 = one core", () => {
    // 25 ticks of steal in 0.5 s at 100 ticks/s: half a core's worth.
    expect(stealPercent(parseMachineCpu(stat(30, 8000)), parseMachineCpu(stat(55, 8080)), 0.5)).toBeCloseTo(50, 9);
  });

  it("fails loudly on a file without the aggregate line", () => {
    expect(() => parseMachineCpu("intr 1\n")).toThrow(/no aggregate cpu line/);
  });
});

describe("a served row's model server, watched beside the row", () => {
  it("samples the server's tree apart from the product's, and only when a server is given", async () => {
    const [product, server] = [spawn("sleep", ["30"]), spawn("sleep", ["30"])];
    try {
      const harness = { runner: process.pid, gendata: () => [], broker: () => [] };
      const watch = new MachineWatch(() => [product.pid as number], harness, () => [server.pid as number]);
      expect(watch.tick().server).toBeUndefined(); // the first tick primes the deltas
      await new Promise((r) => setTimeout(r, 100));
      const tick = watch.tick();
      expect(tick.product?.processes).toBe(1);
      expect(tick.server?.processes).toBe(1);
      expect(new MachineWatch(() => [product.pid as number], harness).tick()).not.toHaveProperty("server");
    } finally {
      product.kill("SIGKILL");
      server.kill("SIGKILL");
    }
  });
});
