/**
 * The README is the front door: short, and every document under docs/ (the published results
 * pages aside) is reachable from it. Every relative link in the README and docs/*.md leads to a
 * file that exists, so moving a document cannot leave a dead link behind.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { repoRoot } from "@bench/core";

const root = repoRoot();
const readme = join(root, "README.md");
/** The documents: docs/*.md and any folder of them, but not docs/results/, which is evidence. */
const docs = readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" })
  .filter((f) => f.endsWith(".md") && !f.startsWith("results/"))
  .map((f) => join(root, "docs", f));

/** Relative link targets in a Markdown file, without their #anchor. */
function relativeLinks(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]!).filter(
    (target) => !/^[a-z]+:/.test(target) && !target.startsWith("#"),
  ).map((target) => target.split("#")[0]!);
}

describe("the README and docs/", () => {
  it("the README is under 250 lines", () => {
    expect(readFileSync(readme, "utf8").split("\n").length).toBeLessThan(250);
  });

  it("links every document under docs/", () => {
    const linked = new Set(relativeLinks(readme).map((target) => join(root, target)));
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.filter((d) => !linked.has(d)).map((d) => relative(root, d))).toEqual([]);
  });

  it("has no relative link to a file that does not exist", () => {
    const dead = [readme, ...docs].flatMap(
      (file) => relativeLinks(file).filter((target) => !existsSync(join(dirname(file), target))).map((target) => `${relative(root, file)} -> ${target}`),
    );
    expect(dead).toEqual([]);
  });
});
