import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { APP_DIR, appFiles, buildApp, buildKey, cargoBuildCommand } from "./build.ts";

describe("the Rust app's build", () => {
  it("builds with the committed lock into the cache's target folder", () => {
    expect(cargoBuildCommand("/repo/app", "/cache/rust/target")).toEqual({ command: "cargo", args: ["build", "--release", "--locked"], cwd: "/repo/app", env: { CARGO_TARGET_DIR: "/cache/rust/target" } });
  });

  it("keys the build by the manifest, the lock, cargo's config and every source", () => {
    const files = appFiles(APP_DIR);
    expect(files).toEqual(expect.arrayContaining(["Cargo.toml", "Cargo.lock", join(".cargo", "config.toml"), join("src", "main.rs"), join("src", "record.rs")]));
    expect(files).toEqual([...files].sort());
  });

  it("changes the key when the compiler or a file changes, and only then", () => {
    const files = [{ path: "src/main.rs", text: "fn main() {}" }];
    const key = buildKey("rustc 1.95.0", files);
    expect(key).toMatch(/^[0-9a-f]{16}$/);
    expect(buildKey("rustc 1.95.0", files)).toBe(key);
    expect(buildKey("rustc 1.96.0", files)).not.toBe(key);
    expect(buildKey("rustc 1.95.0", [{ path: "src/main.rs", text: "fn main() { }" }])).not.toBe(key);
  });

  describe("with a binary already built for the key", () => {
    let cache: string;
    let app: string;
    beforeAll(() => {
      cache = mkdtempSync(join(tmpdir(), "rust-cache-"));
      app = mkdtempSync(join(tmpdir(), "rust-app-"));
      mkdirSync(join(app, "src"));
      mkdirSync(join(app, ".cargo"));
      for (const f of ["Cargo.toml", "Cargo.lock", join(".cargo", "config.toml"), join("src", "main.rs")]) writeFileSync(join(app, f), f);
    });
    afterAll(() => {
      rmSync(cache, { recursive: true, force: true });
      rmSync(app, { recursive: true, force: true });
    });

    it("returns it without running cargo", async () => {
      const key = buildKey("rustc 1.95.0", appFiles(app).map((path) => ({ path, text: path })));
      mkdirSync(join(cache, `app-${key}`));
      writeFileSync(join(cache, `app-${key}`, "rust-row"), "");
      const logged: string[] = [];
      expect(await buildApp(cache, "rustc 1.95.0", (l) => logged.push(l), app)).toBe(join(cache, `app-${key}`, "rust-row"));
      expect(logged).toEqual([]);
    });
  });
});
