import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { KAFKA_SETTINGS } from "@bench/core";
import { connectorProperties, LIBRDKAFKA_DEFAULTS, pipelineNames, pipelineSql, teardownSql } from "./sql.ts";

const expectedDir = join(fileURLToPath(new URL(".", import.meta.url)), "__expected__");
const render = (statements: string[]): string => statements.map((s) => `${s};\n`).join("\n");

const spec = {
  bootstrap: "127.0.0.1:19092",
  inputTopic: "rw-test-in",
  outputTopic: "rw-test-out",
  parallelism: 2,
  udfLink: "http://127.0.0.1:8815",
  prefix: "bench_rw-Test.1",
};

describe("the shared Kafka settings in RisingWave's names", () => {
  test("every shared setting is either named on the source or sink, or is what librdkafka does by itself", () => {
    const named = connectorProperties({ ...KAFKA_SETTINGS.consumer, ...KAFKA_SETTINGS.producer }).length;
    const implied = Object.entries(LIBRDKAFKA_DEFAULTS);
    expect(named + implied.length).toBe(Object.keys(KAFKA_SETTINGS.consumer).length + Object.keys(KAFKA_SETTINGS.producer).length);
    for (const [name, value] of implied) expect(KAFKA_SETTINGS.producer[name]).toBe(value);
  });

  test("a setting RisingWave has no name for is refused, not dropped", () => {
    expect(() => connectorProperties({ "batch.size": 1 })).toThrow(/batch.size/);
  });
});

describe("pipelineSql", () => {
  test("issues exactly the committed pipeline (src/__expected__/pipeline.sql)", () => {
    expect(render(pipelineSql(spec))).toBe(readFileSync(join(expectedDir, "pipeline.sql"), "utf8"));
  });

  test("teardown drops what the pipeline created, sink first", () => {
    expect(render(teardownSql(spec.prefix))).toBe(readFileSync(join(expectedDir, "teardown.sql"), "utf8"));
  });

  test("names are lower-case identifiers whatever the group id holds", () => {
    expect(pipelineNames("bench_Grp-1.x")).toEqual({ source: "bench_grp_1_x_src", func: "bench_grp_1_x_risk", sink: "bench_grp_1_x_sink" });
  });

  test("parallelism follows the run, and must be a positive integer", () => {
    expect(pipelineSql({ ...spec, parallelism: 1 })[0]).toBe("SET streaming_parallelism = 1");
    expect(() => pipelineSql({ ...spec, parallelism: 0 })).toThrow(/positive integer/);
  });

  test("the UDF is declared in the documented external form, retried on network errors", () => {
    const create = pipelineSql(spec).find((s) => s.startsWith("CREATE FUNCTION")) as string;
    // LANGUAGE python would send the frontend down the embedded-UDF path (off by default).
    expect(create).not.toMatch(/LANGUAGE/i);
    expect(create).toMatch(/RETURNS DOUBLE PRECISION\nAS risk USING LINK 'http:\/\/127\.0\.0\.1:8815'\nWITH \( always_retry_on_network_error = true \)$/);
  });

  test("single quotes in values are escaped", () => {
    expect(pipelineSql({ ...spec, inputTopic: "a'b" }).join("\n")).toContain("topic = 'a''b'");
  });
});
