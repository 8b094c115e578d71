import { debianTorchEnv } from "@bench/core";
import { PYTHON_ROW } from "./pins.ts";

it("pins every requirement exactly, numpy to Debian's, over Debian's torch", () => {
  const spec = debianTorchEnv(PYTHON_ROW.requirements);
  expect(spec.requirements.every((r) => /^[A-Za-z0-9_.\-[\]]+==\d[\w.]*$/.test(r))).toBe(true);
  expect(spec).toMatchObject({ systemSitePackages: true, requirements: expect.arrayContaining(["numpy==1.24.2"]) });
});

it("pins pathway itself and no second numpy", () => {
  const spec = debianTorchEnv(PYTHON_ROW.requirements);
  expect(spec.requirements).toContain("pathway==0.33.0");
  expect(spec.requirements.filter((r) => /^numpy==/i.test(r))).toEqual(["numpy==1.24.2"]);
  // Every distribution once: a duplicate with two versions would make pip fail late.
  const names = spec.requirements.map((r) => r.split("==")[0]!.toLowerCase().replace(/[-_.]+/g, "-"));
  expect(new Set(names).size).toBe(names.length);
});
