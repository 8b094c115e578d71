/**
 * Where the RisingWave server comes from. No package registry reachable from this project's
 * machines ships it (PyPI's `risingwave` is an old UDF SDK, not the server), so the row runs
 * wherever a user has one: a binary they name, or a server they already run.
 */
import { isExecutableFile, type Prerequisite, type PrerequisiteMissing } from "@bench/core";
import { basename } from "node:path";

export const ENV_BIN = "RISINGWAVE_BIN";
export const ENV_URL = "RISINGWAVE_URL";

/** `tried`: the setting looked at and refused, when there was one. */
export type RisingWaveLocation =
  | { kind: "binary"; path: string }
  | { kind: "url"; url: string }
  | { kind: "none"; reason: string; fix: string; tried?: string };

export const NOT_AVAILABLE_REASON =
  `no RisingWave server: neither ${ENV_BIN} (path to a risingwave binary, started here in single-node mode) ` +
  `nor ${ENV_URL} (Postgres URL of a running RisingWave, e.g. postgres://root@127.0.0.1:4566/dev) is set, ` +
  "and no package registry reachable here (the npm registry, the Python package index, Maven Central, the Rust crate registry, the Go module proxy, Debian's " +
  "archive) ships the RisingWave server";

export const NOT_AVAILABLE_FIX = `set ${ENV_BIN}=/path/to/risingwave, or ${ENV_URL}=postgres://user@host:4566/dev for a running one`;

function locateBinary(bin: string): RisingWaveLocation {
  const tried = `${ENV_BIN}=${bin}`;
  if (!isExecutableFile(bin)) return {
    kind: "none",
    reason: `${tried} is not an executable file`,
    fix: `point ${ENV_BIN} at a RisingWave server binary`,
    tried,
  };
  // The multicall binary picks its role from the name it was started as: under any other
  // name `single_node` is not a subcommand it knows.
  if (basename(bin) !== "risingwave") {
    return {
      kind: "none",
      reason: `${tried} is named ${basename(bin)}: RisingWave's multicall binary must be named risingwave (it dispatches on its own file name)`,
      fix: `link it, e.g. ln -s ${bin} /usr/local/bin/risingwave, and set ${ENV_BIN} to the link`,
      tried,
    };
  }
  return { kind: "binary", path: bin };
}

/** Reads the two env vars; a binary wins over a URL when both are set. */
export function locateRisingWave(env: Record<string, string | undefined>): RisingWaveLocation {
  const bin = env[ENV_BIN]?.trim();
  const url = env[ENV_URL]?.trim();
  if (bin) return locateBinary(bin);
  if (url) {
    const tried = `${ENV_URL}=${url}`;
    if (!/^postgres(ql)?:\/\//.test(url)) return {
      kind: "none",
      reason: `${tried} is not a Postgres URL (postgres://user@host:port/db)`,
      fix: `set ${ENV_URL}=postgres://user@host:4566/dev`,
      tried,
    };
    return { kind: "url", url };
  }
  return { kind: "none", reason: NOT_AVAILABLE_REASON, fix: NOT_AVAILABLE_FIX };
}

/** The doctor's row name for where the server comes from. */
const LOCATION_CHECK = "RisingWave";

/** The lookup's answer as the doctor lists it and prepare() refuses with it (a URL's reachability is prepare()'s to find out). */
export function locationCheck(where: RisingWaveLocation): Prerequisite {
  if (where.kind === "binary") return { name: LOCATION_CHECK, have: `${ENV_BIN}=${where.path}`, ok: true };
  if (where.kind === "url") return { name: LOCATION_CHECK, have: `${ENV_URL}=${where.url}`, ok: true };
  return missingLocation(where);
}

export function missingLocation(none: Extract<RisingWaveLocation, { kind: "none" }>): PrerequisiteMissing {
  return { name: LOCATION_CHECK, have: none.tried ?? "none", ok: false, reason: none.reason, fix: none.fix };
}

/** "PostgreSQL 13.14.0-RisingWave-2.8.4 (...)" or "risingwave 2.8.4 (...)" -> "2.8.4". */
export function parseRisingWaveVersion(text: string): string | undefined {
  const tagged = /RisingWave-v?(\d+\.\d+\.\d+[\w.-]*)/i.exec(text);
  if (tagged) return tagged[1];
  const plain = /risingwave\S*\s+v?(\d+\.\d+\.\d+[\w.-]*)/i.exec(text);
  return plain?.[1];
}
