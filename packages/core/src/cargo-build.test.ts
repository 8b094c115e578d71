import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildKey, cargoBuildCommand, crateFiles } from "./cargo-build.ts";

describe("a crate's cargo build", () => {
  it("builds with the committed lock into the cache's target folder", () => {
    expect(cargoBuildCommand("/repo/app", "/cache/rust/target")).toEqual(
      { command: "cargo", args: ["build", "--release", "--locked"], cwd: "/repo/app", env: { CARGO_TARGET_DIR: "/cache/rust/target" } },
    );
  });

  it("keys the build by the manifest, the lock, cargo's config and every source, sorted", () => {
    const crate = mkdtempSync(join(tmpdir(), "crate-"));
    try {
      mkdirSync(join(crate, "src", "deep"), { recursive: true });
      for (const f of [join("src", "main.rs"), join("src", "deep", "a.rs"), join("src", "notes.txt")]) writeFileSync(join(crate, f), "");
      expect(crateFiles(crate)).toEqual(
        [join(".cargo", "config.toml"), "Cargo.lock", "Cargo.toml", join("src", "deep", "a.rs"), join("src", "main.rs")].sort(),
      );
    } finally {
      rmSync(crate, { recursive: true, force: true });
    }
  });

  it("changes the key when the compiler or a file changes, and only then", () => {
    const files = [{ path: "src/main.rs", text: "fn main() {}" }];
    const key = buildKey("rustc 1.95.0", files);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(buildKey("rustc 1.95.0", files)).toBe(key);
    expect(buildKey("rustc 1.96.0", files)).not.toBe(key);
    expect(buildKey("rustc 1.95.0", [{ path: "src/main.rs", text: "fn main() { }" }])).not.toBe(key);
  });
});
