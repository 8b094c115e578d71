/**
 * The published evidence stays light: every clone carries docs/results, so its tracked files may
 * take at most 15 MB on disk. A file is counted as du counts it, in whole 4 KiB blocks, and only if
 * git tracks it, so what this test passes is what a fresh clone holds.
 */
import { execFileSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@bench/core";

const LIMIT_BYTES = 15 * 1024 * 1024;
const BLOCK = 4096;

describe("docs/results", () => {
  it("takes at most 15 MB of tracked files on disk", () => {
    const root = repoRoot();
    const tracked = execFileSync("git", ["ls-files", "-z", "--", "docs/results"], { cwd: root, encoding: "utf8" })
      .split("\0")
      .filter((path) => path !== "" && existsSync(join(root, path)));
    expect(tracked.length).toBeGreaterThan(0);
    const onDisk = tracked.reduce((sum, path) => sum + Math.ceil(statSync(join(root, path)).size / BLOCK) * BLOCK, 0);
    const mb = (onDisk / 1024 / 1024).toFixed(1);
    expect({ onDiskMb: mb, withinLimit: onDisk <= LIMIT_BYTES }).toEqual({ onDiskMb: mb, withinLimit: true });
  });
});
