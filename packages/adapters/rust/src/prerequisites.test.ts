import { curlHeadersCheck, parseRustcVersion, rustcCheck, toolCheck } from "./prerequisites.ts";

describe("the Rust row's prerequisites", () => {
  it("reads rustc's version line", () => {
    expect(parseRustcVersion("rustc 1.95.0 (59807616e 2026-04-14)\n")).toEqual([1, 95, 0]);
    expect(parseRustcVersion("something else")).toBeUndefined();
  });

  it("wants a rustc ort 2.0.0-rc.15 builds with (1.92 or newer)", () => {
    expect(rustcCheck("rustc 1.95.0 (59807616e 2026-04-14)")).toEqual({ name: "rustc (Rust row)", have: "1.95.0", ok: true });
    expect(rustcCheck("rustc 1.92.0 (abc 2025-12-01)")).toMatchObject({ ok: true });
    expect(rustcCheck("rustc 1.63.0 (4b91a6ea7 2022-08-08)")).toMatchObject({ ok: false, have: "1.63.0", reason: expect.stringMatching(/older/) });
    expect(rustcCheck(undefined)).toMatchObject({ ok: false, have: "none", fix: expect.stringMatching(/Rust/) });
  });

  it("says a tool's version, or what it is for and how to install it", () => {
    expect(
      toolCheck("cmake (librdkafka build)", "cmake version 3.25.1\n\nCMake suite", "r", "apt-get install cmake"),
    ).toEqual({ name: "cmake (librdkafka build)", have: "3.25.1", ok: true });
    expect(toolCheck("cmake (librdkafka build)", undefined, "r", "apt-get install cmake")).toEqual(
      { name: "cmake (librdkafka build)", have: "none", ok: false, reason: "r", fix: "apt-get install cmake" },
    );
  });

  it("asks dpkg for libcurl's headers, the package the adapter declares for apt", () => {
    expect(curlHeadersCheck("install ok installed", "7.88.1-10+deb12u14")).toMatchObject({ ok: true, have: "7.88.1-10+deb12u14" });
    expect(curlHeadersCheck("deinstall ok config-files", "")).toMatchObject({ ok: false, fix: "apt-get install libcurl4-openssl-dev" });
    expect(curlHeadersCheck(undefined, undefined)).toMatchObject({ ok: false });
  });
});
