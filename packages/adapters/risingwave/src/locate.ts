/**
 * Where the RisingWave server comes from. No package registry reachable from this project's
 * machines ships it (PyPI's `risingwave` is an old UDF SDK, not the server), so the row runs
 * wherever a user has one: a binary they name, or a server they already run.
 */
import { isExecutableFile } from "@bench/core";
import { basename } from "node:path";

export const ENV_BIN = "RISINGWAVE_BIN";
export const ENV_URL = "RISINGWAVE_URL";

export type RisingWaveLocation =
  | { kind: "binary"; path: string }
  | { kind: "url"; url: string }
  | { kind: "none"; reason: string };

export const NOT_AVAILABLE_REASON =
  `no RisingWave server: neither ${ENV_BIN} (path to a risingwave binary, started here in single-node mode) ` +
  `nor ${ENV_URL} (Postgres URL of a running RisingWave, e.g. postgres://root@127.0.0.1:4566/dev) is set, ` +
  "and no package registry reachable here (the npm registry, the Python package index, Maven Central, the Rust crate registry, the Go module proxy, Debian's archive) ships the RisingWave server";

/** Reads the two env vars; a binary wins over a URL when both are set. */
export function locateRisingWave(env: Record<string, string | undefined>): RisingWaveLocation {
  const bin = env[ENV_BIN]?.trim();
  const url = env[ENV_URL]?.trim();
  if (bin) {
    if (!isExecutableFile(bin)) return { kind: "none", reason: `${ENV_BIN}=${bin} is not an executable file` };
    // The multicall binary picks its role from the name it was started as: under any other
    // name `single_node` is not a subcommand it knows.
    if (basename(bin) !== "risingwave") {
      return {
        kind: "none",
        reason: `${ENV_BIN}=${bin} is named ${basename(bin)}: RisingWave's multicall binary must be named risingwave (it dispatches on its own file name); link it, e.g. ln -s ${bin} /usr/local/bin/risingwave, and set ${ENV_BIN} to the link`,
      };
    }
    return { kind: "binary", path: bin };
  }
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) return { kind: "none", reason: `${ENV_URL}=${url} is not a Postgres URL (postgres://user@host:port/db)` };
    return { kind: "url", url };
  }
  return { kind: "none", reason: NOT_AVAILABLE_REASON };
}

/** "PostgreSQL 13.14.0-RisingWave-2.8.4 (...)" or "risingwave 2.8.4 (...)" -> "2.8.4". */
export function parseRisingWaveVersion(text: string): string | undefined {
  const tagged = /RisingWave-v?(\d+\.\d+\.\d+[\w.-]*)/i.exec(text);
  if (tagged) return tagged[1];
  const plain = /risingwave\S*\s+v?(\d+\.\d+\.\d+[\w.-]*)/i.exec(text);
  return plain?.[1];
}
