import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildKey, crateFiles } from "@bench/core";
import { APP_DIR, buildApp } from "./build.ts";

describe("the Rust app's build", () => {
  it("keys the build by the manifest, the lock, cargo's config and every source", () => {
    const files = crateFiles(APP_DIR);
    expect(files).toEqual(
      expect.arrayContaining(["Cargo.toml", "Cargo.lock", join(".cargo", "config.toml"), join("src", "main.rs"), join("src", "record.rs")]),
    );
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
      const key = buildKey("rustc 1.95.0", crateFiles(app).map((path) => ({ path, text: path })));
      mkdirSync(join(cache, `app-${key}`));
      writeFileSync(join(cache, `app-${key}`, "rust-row"), "");
      const logged: string[] = [];
      expect(await buildApp(cache, "rustc 1.95.0", (l) => logged.push(l), app)).toBe(join(cache, `app-${key}`, "rust-row"));
      expect(logged).toEqual([]);
    });
  });
});
