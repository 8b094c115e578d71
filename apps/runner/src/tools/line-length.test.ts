/**
 * No TypeScript, Python, Java or Rust source line over 160 characters in any file git tracks: past that a line
 * is read by scrolling, and a diff of it hides what changed.
 * A line is measured in UTF-8 bytes, as `awk 'length > 160'` (mawk) counts it, so "µ" or "×" counts twice:
 * a line this test passes is one that awk check passes too.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "@bench/core";

const MAX_LINE = 160;

/** Generated files, skipped by name (their generator decides their lines); none is tracked. */
const GENERATED: readonly string[] = [];

const skipped = (path: string): boolean =>
  GENERATED.some((entry) => (entry.endsWith("/") ? path.startsWith(entry) : path === entry));

describe("source line length", () => {
  it(`has no TypeScript, Python, Java or Rust line over ${MAX_LINE} characters`, () => {
    const root = repoRoot();
    const tracked = execFileSync("git", ["ls-files", "-z", "--", "*.ts", "*.py", "*.java", "*.rs"], { cwd: root, encoding: "utf8" })
      .split("\0")
      .filter((path) => path !== "" && !skipped(path) && existsSync(join(root, path)));
    expect(tracked.length).toBeGreaterThan(0);
    const long: string[] = [];
    for (const path of tracked) {
      readFileSync(join(root, path), "utf8")
        .split("\n")
        .forEach((line, i) => {
          if (Buffer.byteLength(line, "utf8") > MAX_LINE) long.push(`${path}:${i + 1}`);
        });
    }
    expect(long).toEqual([]);
  });
});
