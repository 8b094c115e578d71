import { debianTorchEnv } from "@bench/core";
import { GRPCIO_VERSION, PROTOBUF_VERSION, PYTHON_ROW, TRITONCLIENT_VERSION } from "./pins.ts";

it("pins every requirement exactly, numpy to Debian's, over Debian's torch", () => {
  const spec = debianTorchEnv(PYTHON_ROW.requirements);
  expect(spec.requirements.every((r) => /^[A-Za-z0-9_.\-[\]]+==\d[\w.]*$/.test(r))).toBe(true);
  expect(spec).toMatchObject({ systemSitePackages: true, requirements: expect.arrayContaining(["numpy==1.24.2"]) });
});

it("pins the served path's gRPC client under apache-beam's ceilings (grpcio < 1.66, protobuf < 6), and checks that it imports", () => {
  expect(PYTHON_ROW.requirements).toEqual(expect.arrayContaining([`tritonclient[grpc]==${TRITONCLIENT_VERSION}`, `grpcio==${GRPCIO_VERSION}`]));
  expect(GRPCIO_VERSION).toMatch(/^1\.(\d|[1-5]\d|6[0-5])\./);
  expect(Number(PROTOBUF_VERSION.split(".")[0])).toBeLessThan(6);
  expect(PYTHON_ROW.imports).toContain("tritonclient.grpc");
});
