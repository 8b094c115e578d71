/**
 * What the native row needs from the machine to build and run: Rust (rustc new enough for
 * ort, and cargo), cmake and libcurl's headers for librdkafka's build from source (Debian 12's
 * librdkafka is too old for the rdkafka crate; its build needs curl/curl.h even with curl
 * off), and pip in Debian's Python to fetch ONNX Runtime's library. Nothing is built here.
 */
import { execa } from "execa";
import { DEBIAN_PYTHON, sharedWhileRunning, type Prerequisite } from "@bench/core";
import { MIN_RUSTC } from "./pins.ts";

/** "rustc 1.95.0 (59807616e 2026-04-14)" -> [1, 95, 0]. */
export function parseRustcVersion(text: string): [number, number, number] | undefined {
  const m = /^rustc (\d+)\.(\d+)\.(\d+)/.exec(text.trim());
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

export function rustcCheck(versionText: string | undefined): Prerequisite {
  const name = "rustc (Rust row)";
  const want = `${MIN_RUSTC.join(".")} or newer`;
  const fix = "install Rust (rustup, or apt-get install rustc cargo if Debian's is new enough)";
  if (versionText === undefined) return { name, have: "none", ok: false, reason: `no rustc on PATH: the Rust row is built with cargo (${want})`, fix };
  const version = parseRustcVersion(versionText);
  const have = version?.join(".") ?? versionText.trim();
  const [major, minor] = MIN_RUSTC;
  if (!version || version[0] < major || (version[0] === major && version[1] < minor)) return {
    name,
    have,
    ok: false,
    reason: `rustc ${have} is older than ort 2.0.0-rc.15 needs (${want})`,
    fix,
  };
  return { name, have, ok: true };
}

/** A tool that must answer `--version`, named with what it is for. */
export function toolCheck(name: string, versionText: string | undefined, reason: string, fix: string): Prerequisite {
  if (versionText === undefined) return { name, have: "none", ok: false, reason, fix };
  return { name, have: /\d+\.\d+(\.\d+)?/.exec(versionText)?.[0] ?? "yes", ok: true };
}

/** dpkg's status of libcurl4-openssl-dev ("install ok installed" when it is). */
export function curlHeadersCheck(dpkgStatus: string | undefined, version: string | undefined): Prerequisite {
  const name = "libcurl headers (librdkafka build)";
  if (dpkgStatus?.trim() === "install ok installed") return { name, have: version?.trim() || "installed", ok: true };
  return {
    name,
    have: "none",
    ok: false,
    reason: "librdkafka's build from the rdkafka crate's source includes curl/curl.h",
    fix: "apt-get install libcurl4-openssl-dev",
  };
}

async function output(command: string, args: string[]): Promise<string | undefined> {
  const r = await execa(command, args, { reject: false, timeout: 60_000, all: true });
  return r.exitCode === 0 ? String(r.all ?? "").trim() : undefined;
}

/** The installed rustc's version line (part of the build key), undefined without one. */
export const rustcVersion = (): Promise<string | undefined> => output("rustc", ["--version"]);

export const rustPrerequisites: () => Promise<Prerequisite[]> = sharedWhileRunning(async () => {
  const [rustc, cargo, cmake, curlStatus, curlVersion, pip] = await Promise.all([
    rustcVersion(),
    output("cargo", ["--version"]),
    output("cmake", ["--version"]),
    output("dpkg-query", ["-W", "-f", "${Status}", "libcurl4-openssl-dev"]),
    output("dpkg-query", ["-W", "-f", "${Version}", "libcurl4-openssl-dev"]),
    output(DEBIAN_PYTHON, ["-c", "import venv, ensurepip; print('yes')"]),
  ]);
  return [
    rustcCheck(rustc),
    toolCheck("cargo", cargo, "no cargo on PATH: the Rust row is built with cargo", "install Rust's cargo with rustc"),
    toolCheck("cmake (librdkafka build)", cmake, "no cmake on PATH: the rdkafka crate builds librdkafka from source with cmake", "apt-get install cmake"),
    curlHeadersCheck(curlStatus, curlVersion),
    toolCheck(
      "pip (onnxruntime wheel)",
      pip,
      `${DEBIAN_PYTHON} cannot make a venv with pip, which fetches ONNX Runtime's library`,
      "apt-get install python3.11-venv",
    ),
  ];
});
