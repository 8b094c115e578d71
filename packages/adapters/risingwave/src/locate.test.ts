import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ENV_BIN, ENV_URL, locateRisingWave, locationCheck, NOT_AVAILABLE_FIX, NOT_AVAILABLE_REASON, parseRisingWaveVersion } from "./locate.ts";

describe("locateRisingWave", () => {
  const dir = mkdtempSync(join(tmpdir(), "rw-locate-"));
  const exe = join(dir, "risingwave");
  writeFileSync(exe, "#!/bin/sh\n");
  chmodSync(exe, 0o755);
  const plain = join(dir, "not-executable");
  writeFileSync(plain, "");

  test("nothing set: says which env vars were checked and that no registry ships the server", () => {
    const where = locateRisingWave({});
    expect(where).toEqual({ kind: "none", reason: NOT_AVAILABLE_REASON, fix: NOT_AVAILABLE_FIX });
    expect(NOT_AVAILABLE_REASON).toContain(ENV_BIN);
    expect(NOT_AVAILABLE_REASON).toContain(ENV_URL);
    expect(NOT_AVAILABLE_REASON).toMatch(/no package registry .* ships the RisingWave server/);
  });

  test("blank values count as unset", () => {
    expect(locateRisingWave({ [ENV_BIN]: " ", [ENV_URL]: "" }).kind).toBe("none");
  });

  test("an executable binary wins over a URL", () => {
    expect(locateRisingWave({ [ENV_BIN]: exe, [ENV_URL]: "postgres://root@127.0.0.1:4566/dev" })).toEqual({ kind: "binary", path: exe });
  });

  test("a binary that is missing or not executable is refused with its path", () => {
    expect(locateRisingWave({ [ENV_BIN]: join(dir, "missing") })).toMatchObject({ kind: "none", reason: expect.stringContaining("missing") });
    expect(locateRisingWave({ [ENV_BIN]: plain })).toMatchObject({ kind: "none", reason: expect.stringContaining("not an executable") });
  });

  test("a binary under another name than risingwave is refused, saying why", () => {
    const renamed = join(dir, "risingwave-2.8.4");
    writeFileSync(renamed, "#!/bin/sh\n");
    chmodSync(renamed, 0o755);
    const where = locateRisingWave({ [ENV_BIN]: renamed });
    expect(where).toMatchObject({ kind: "none", reason: expect.stringContaining("is named risingwave-2.8.4") });
    expect(where.kind === "none" && where.reason).toContain("must be named risingwave");
    expect(where.kind === "none" && where.fix).toBe(`link it, e.g. ln -s ${renamed} /usr/local/bin/risingwave, and set RISINGWAVE_BIN to the link`);
  });

  test("as a prerequisite: what is set, or the reason and fix of what is not", () => {
    expect(locationCheck(locateRisingWave({ [ENV_BIN]: exe }))).toEqual({ name: "RisingWave", have: `RISINGWAVE_BIN=${exe}`, ok: true });
    expect(locationCheck(locateRisingWave({ [ENV_URL]: "postgres://root@127.0.0.1:4566/dev" }))).toEqual(
      { name: "RisingWave", have: "RISINGWAVE_URL=postgres://root@127.0.0.1:4566/dev", ok: true },
    );
    expect(locationCheck(locateRisingWave({}))).toEqual({ name: "RisingWave", have: "none", ok: false, reason: NOT_AVAILABLE_REASON, fix: NOT_AVAILABLE_FIX });
    expect(locationCheck(locateRisingWave({ [ENV_BIN]: plain }))).toEqual({
      name: "RisingWave",
      have: `RISINGWAVE_BIN=${plain}`,
      ok: false,
      reason: `RISINGWAVE_BIN=${plain} is not an executable file`,
      fix: "point RISINGWAVE_BIN at a RisingWave server binary",
    });
    expect(locationCheck(locateRisingWave({ [ENV_URL]: "http://x" }))).toMatchObject({ ok: false, fix: "set RISINGWAVE_URL=postgres://user@host:4566/dev" });
  });

  test("the reason names registries by kind, never by host", () => {
    expect(NOT_AVAILABLE_REASON).toContain("the Rust crate registry");
    expect(NOT_AVAILABLE_REASON).not.toMatch(/\.(org|io|com|net)\b/);
  });

  test("a Postgres URL selects a running server; anything else is refused", () => {
    expect(locateRisingWave({ [ENV_URL]: "postgres://root@127.0.0.1:4566/dev" })).toEqual({ kind: "url", url: "postgres://root@127.0.0.1:4566/dev" });
    expect(locateRisingWave({ [ENV_URL]: "http://127.0.0.1:4566" })).toMatchObject({ kind: "none" });
  });
});

describe("parseRisingWaveVersion", () => {
  test("reads SELECT version() and --version output", () => {
    expect(parseRisingWaveVersion("PostgreSQL 13.14.0-RisingWave-2.8.4 (a1b2c3d)")).toBe("2.8.4");
    expect(parseRisingWaveVersion("PostgreSQL 13.14.0-RisingWave-v2.8.4 (a1b2c3d)")).toBe("2.8.4");
    expect(parseRisingWaveVersion("risingwave 2.8.4 (a1b2c3d)")).toBe("2.8.4");
    expect(parseRisingWaveVersion("PostgreSQL 16.1")).toBeUndefined();
  });
});
