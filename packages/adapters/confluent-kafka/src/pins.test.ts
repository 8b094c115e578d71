import { debianTorchEnv } from "@bench/core";
import { CONFLUENT_KAFKA_VERSION, PYTHON_ROW, TRITONCLIENT_VERSION } from "./pins.ts";

it("pins every requirement exactly, numpy to Debian's, over Debian's torch", () => {
  const spec = debianTorchEnv(PYTHON_ROW.requirements);
  expect(spec.requirements.every((r) => /^[A-Za-z0-9_.\-[\]]+==\d[\w.]*$/.test(r))).toBe(true);
  expect(spec).toMatchObject(
    { systemSitePackages: true, requirements: expect.arrayContaining(["numpy==1.24.2", `confluent-kafka==${CONFLUENT_KAFKA_VERSION}`]) },
  );
});

it("names the client on the page under the row's id, so the floor's version shows", () => {
  expect(PYTHON_ROW.versions["confluent-kafka"]).toBe("confluent-kafka");
  expect(PYTHON_ROW.imports).toEqual(expect.arrayContaining(["confluent_kafka", "orjson"]));
});

it("pins the served path's gRPC client, and checks that it imports", () => {
  expect(PYTHON_ROW.requirements).toContain(`tritonclient[grpc]==${TRITONCLIENT_VERSION}`);
  expect(PYTHON_ROW.imports).toContain("tritonclient.grpc");
});
