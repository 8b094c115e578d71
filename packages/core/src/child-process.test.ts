import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ManagedProcess } from "./child-process.ts";
import { processTree } from "./proc.ts";

/** Running, not merely a zombie waiting for whoever adopted it to reap it. */
const alive = (pid: number): boolean => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
};

describe("ManagedProcess", () => {
  const logFile = (): string => join(mkdtempSync(join(tmpdir(), "managed-")), "out.log");

  it("waits for a readiness line, keeps a log tail and the log file", async () => {
    const file = logFile();
    const p = new ManagedProcess({ command: "sh", args: ["-c", "echo starting; sleep 0.2; echo BENCH_READY now; sleep 30"], logFile: file });
    await expect(p.waitForLine(/BENCH_READY/, 5000)).resolves.toBe("BENCH_READY now");
    expect(p.logTail()).toContain("starting");
    await p.stop();
    expect(readFileSync(file, "utf8")).toContain("BENCH_READY now");
  });

  it("matches only a complete line: a line written in two parts is in logTail() once waitForLine resolves", async () => {
    const p = new ManagedProcess(
      { command: "sh", args: ["-c", "printf 'BENCH_READY partition 0'; sleep 0.3; printf ' from offset 268\\n'; sleep 30"], logFile: logFile() },
    );
    await expect(p.waitForLine(/BENCH_READY/, 5000)).resolves.toBe("BENCH_READY partition 0 from offset 268");
    expect(p.logTail()).toBe("BENCH_READY partition 0 from offset 268");
    await p.stop();
  });

  it("stops the whole process group, grandchildren that ignore SIGTERM included", async () => {
    const p = new ManagedProcess({
      command: "sh",
      args: ["-c", "(trap '' TERM; sleep 60) & (trap '' TERM; sleep 60) & echo BENCH_READY; wait"],
      logFile: logFile(),
    });
    await p.waitForLine(/BENCH_READY/, 5000);
    const tree = processTree([p.pid]).map((s) => s.pid);
    expect(tree.length).toBeGreaterThanOrEqual(3);
    await p.stop(500);
    await new Promise((r) => setTimeout(r, 100));
    expect(tree.filter(alive)).toEqual([]);
  });

  it("rejects the readiness wait when the process exits first, with its exit", async () => {
    const p = new ManagedProcess({ command: "sh", args: ["-c", "echo boom >&2; exit 3"], logFile: logFile() });
    await expect(p.waitForLine(/BENCH_READY/, 5000)).rejects.toThrow("exited (code 3, signal null)");
    expect(p.logTail()).toContain("boom");
    await expect(p.exited).resolves.toEqual({ code: 3, signal: null });
  });

  it("rejects the readiness wait on timeout", async () => {
    const p = new ManagedProcess({ command: "sleep", args: ["30"], logFile: logFile() });
    await expect(p.waitForLine(/BENCH_READY/, 300)).rejects.toThrow("within 0.3s");
    await p.stop();
  });
});
