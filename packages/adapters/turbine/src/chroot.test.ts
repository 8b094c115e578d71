import { rootInvocation } from "./chroot.ts";

describe("rootInvocation", () => {
  it("runs the command through a private mount namespace and chroot, binds as positional arguments", () => {
    const inv = rootInvocation("/cache/root", ["/opt/venv/bin/python", "/bench/app/x.py"], [
      { host: "/repo/app", inRoot: "/bench/app", readOnly: true },
      { host: "/runs/1", inRoot: "/bench/run" },
    ]);
    expect(inv.command).toBe("unshare");
    expect(inv.args.slice(0, 5)).toEqual(["--mount", "--propagation", "private", "--fork", "--"]);
    // No --pid: the app stays in the host PID namespace, visible to the sampler.
    expect(inv.args).not.toContain("--pid");
    const script = inv.args[7] as string;
    expect(script).toContain('exec chroot "$root"');
    expect(inv.args.slice(8)).toEqual([
      "turbine-root",
      "/cache/root",
      "/repo/app",
      "/bench/app",
      "ro",
      "/runs/1",
      "/bench/run",
      "rw",
      "--",
      "/opt/venv/bin/python",
      "/bench/app/x.py",
    ]);
  });
  it("refuses relative bind targets and an empty command", () => {
    expect(() => rootInvocation("/r", ["x"], [{ host: "/a", inRoot: "b" }])).toThrow(/absolute/);
    expect(() => rootInvocation("/r", [])).toThrow(/command/);
  });
});
