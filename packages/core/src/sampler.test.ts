import { spawn } from "node:child_process";
import { TreeSampler } from "./sampler.ts";

/**
 * A child that forks a grandchild; both burn CPU and report their own usage (process.cpuUsage)
 * on exit. The sampler, which sees them only through /proc, must account for the same CPU.
 */
const BURNER = `
const { spawn } = require("node:child_process");
const burn = (ms) => { const end = Date.now() + ms; while (Date.now() < end) {} };
if (process.env.BURN_ROLE === "grandchild") {
  const t = setInterval(() => burn(30), 60);     // about half a core
  setTimeout(() => { clearInterval(t); const u = process.cpuUsage(); console.log(JSON.stringify(u)); }, 2600);
} else {
  const g = spawn(process.execPath, ["-e", process.env.BURN_SCRIPT], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, BURN_ROLE: "grandchild" ` +
    `} });
  let out = ""; g.stdout.on("data", (d) => (out += d));
  const t = setInterval(() => burn(20), 80);     // about a quarter of a core
  g.on("exit", () => { clearInterval(t); const u = process.cpuUsage(); console.log(out.trim() + " " + JSON.stringify(u)); });
}
`;

describe("TreeSampler", () => {
  it("measures a process tree's CPU as the processes themselves count it", async () => {
    const child = spawn(process.execPath, ["-e", BURNER], { stdio: ["ignore", "pipe", "inherit"], env: { ...process.env, BURN_SCRIPT: BURNER } });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    const sampler = new TreeSampler(() => [child.pid as number]);
    sampler.sample(); // baseline
    const samples = [];
    let processesSeen = 0;
    for (let i = 0; i < 2; i++) {
      await new Promise((r) => setTimeout(r, 1000));
      const s = sampler.sample();
      if (s) {
        samples.push(s);
        processesSeen = Math.max(processesSeen, s.processes);
      }
    }
    await new Promise((r) => child.on("exit", r));
    const [grand, own] = output.trim().split(" ").map((j) => JSON.parse(j) as { user: number; system: number });
    const selfReportedSeconds = [grand, own].reduce((a, u) => a + (u!.user + u!.system) / 1e6, 0);
    const sampledSeconds = samples.reduce((a, s) => a + s.cpuPercent / 100, 0);

    expect(processesSeen).toBe(2); // the grandchild was found
    expect(samples.every((s) => s.instrument === "pss" && s.memMb > 10)).toBe(true);
    // The two 1 s samples cover most of the ~2.6 s run; startup and the tail fall outside them.
    expect(sampledSeconds).toBeGreaterThan(0.35 * selfReportedSeconds);
    expect(sampledSeconds).toBeLessThanOrEqual(selfReportedSeconds * 1.05 + 0.05);
    const cost = sampler.cost();
    expect(cost.ticks).toBe(3);
    expect(cost.cpuPercent).toBeLessThan(10);
  }, 20_000);
});
