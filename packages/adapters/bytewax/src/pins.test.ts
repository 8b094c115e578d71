import { debianTorchEnv } from "@bench/core";
import { BYTEWAX_VERSION, PYTHON_ROW } from "./pins.ts";

it("pins every requirement exactly, numpy to Debian's, over Debian's torch", () => {
  const spec = debianTorchEnv(PYTHON_ROW.requirements);
  expect(spec.requirements.every((r) => /^[A-Za-z0-9_.\-[\]]+==\d[\w.]*$/.test(r))).toBe(true);
  expect(spec).toMatchObject({ systemSitePackages: true, requirements: expect.arrayContaining(["numpy==1.24.2"]) });
});

it("pins Bytewax's last release with its Kafka connector's client", () => {
  expect(BYTEWAX_VERSION).toBe("0.21.1");
  expect(PYTHON_ROW.requirements).toEqual(expect.arrayContaining(["bytewax[kafka]==0.21.1", expect.stringMatching(/^confluent-kafka==/)]));
});
