import { readFileSync } from "node:fs";
import { join } from "node:path";
import { crateVersions, lockedVersions, vendoredLibrdkafka } from "./pins.ts";

const lock = readFileSync(join(import.meta.dirname, "..", "app", "Cargo.lock"), "utf8");
const manifest = readFileSync(join(import.meta.dirname, "..", "app", "Cargo.toml"), "utf8");

it("reads the committed lock's versions of the row's crates and the librdkafka they vendor", () => {
  expect(crateVersions(lock)).toEqual({ rdkafka: "0.39.0", ort: "2.0.0-rc.15", "sonic-rs": "0.5.10", librdkafka: "2.12.1" });
});

it("takes librdkafka's version from rdkafka-sys' build metadata", () => {
  expect(vendoredLibrdkafka("4.10.0+2.12.1")).toBe("2.12.1");
  expect(vendoredLibrdkafka("4.10.0")).toBeUndefined();
  expect(lockedVersions('[[package]]\nname = "a"\nversion = "1.0.0"\n\n[[package]]\nname = "a"\nversion = "2.0.0"\n').get("a")).toBe("1.0.0");
});

it("builds librdkafka from source and loads ONNX Runtime at run time: nothing is downloaded by the build", () => {
  expect(manifest).toMatch(/^rdkafka = \{[^}]*default-features = false[^}]*"cmake-build"/m);
  expect(manifest).toMatch(/^ort = \{[^}]*default-features = false[^}]*"load-dynamic"[^}]*"api-31"/m);
});
