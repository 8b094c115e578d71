/**
 * The served row's Open Inference Protocol messages (app/src/bench/InferMessages.java, written by
 * hand with protobuf-java's coded streams) against protobuf's own: the Python classes kserve
 * generates from grpc_predict_v2.proto, in the bench's model server's venv (test/infer_messages.py).
 * The app's requests are byte for byte the ones protobuf writes for the same request, and read back
 * field for field; answers protobuf writes are read by the app, and every wrong answer (no such
 * output, another type, shape or count, a value that is not finite, bytes that are no message) is a
 * BadAnswer that says what came.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cacheRoot, JAVA_HOME, loadModelCard, modelsDir, prepareModelServer } from "@bench/core";
import { buildApp } from "./build.ts";
import { ARTIFACTS } from "./pins.ts";

// First run resolves the jars, compiles the app and builds the server's venv; later runs reuse the cache.
const SETUP_MS = 900_000;
const CALL_MS = 120_000;

const adapterDir = join(import.meta.dirname, "..");
const card = loadModelCard(modelsDir());
const classes = mkdtempSync(join(tmpdir(), "ks-infer-messages-"));
let classpath = "";
let python = "";

beforeAll(async () => {
  const log = (line: string): void => console.log(line);
  const built = await buildApp(join(cacheRoot(), "kafka-streams"), ARTIFACTS, JAVA_HOME, log);
  const driver = join(adapterDir, "app", "test", "bench", "InferMessagesDriver.java");
  await execa(join(JAVA_HOME, "bin", "javac"), ["-Xlint:all", "-Werror", "--release", "17", "-d", classes, "-cp", built.classpath, driver]);
  classpath = `${classes}:${built.classpath}`;
  const server = await prepareModelServer({ cacheRoot: cacheRoot(), modelsDir: modelsDir(), log });
  if (!server.ok) throw new Error(server.reason);
  python = server.python;
}, SETUP_MS);

afterAll(() => rmSync(classes, { recursive: true, force: true }));

/** One answer line of the app's driver per job line. */
async function app(jobs: string[]): Promise<string[]> {
  const { stdout } = await execa(join(JAVA_HOME, "bin", "java"), ["-cp", classpath, "bench.InferMessagesDriver"], { input: `${jobs.join("\n")}\n` });
  return stdout.split("\n");
}

interface Tensor { name: string; datatype: string; shape: number[]; fp32_contents?: Array<number | string> }
interface AnswerSpec { outputs: Tensor[]; raw?: Array<Array<number | string>>; raw_hex?: string[]; raw_dtype?: string; model_name?: string; id?: string;
  parameters?: Record<string, string> }
interface ParsedRequest { model_name: string; inputs: Array<{ name: string; datatype: string; shape: number[] }>; outputs: string[]; raw: number[][] }

/** protobuf's own (kserve's generated classes) on the jobs. */
async function protobuf(jobs: { requests?: object[]; parse?: string[]; responses?: AnswerSpec[] }): Promise<{
  requests: string[]; parsed: ParsedRequest[]; responses: string[];
}> {
  const { stdout } = await execa(python, [join(adapterDir, "test", "infer_messages.py")], { input: JSON.stringify(jobs) });
  return JSON.parse(stdout) as { requests: string[]; parsed: ParsedRequest[]; responses: string[] };
}

const rows = [
  [0, 0, 0, 0],
  [1, 1, 1, 1],
  [0.25, 0.5, 0.0625, 0.1],
];
const requestJob = (features: number[][]): string =>
  `request ${card.name} ${card.onnx.input} ${card.onnx.output} 4 ${features.flat().join(",")}`;
const risksJob = (records: number, answerHex: string): string => `risks ${card.onnx.output} ${records} ${answerHex}`;
/** The driver's risks as float32 values: Java prints a float as the shortest decimal that reads back as the same float. */
const floats = (line: string): number[] => line.split(",").map((v) => Math.fround(Number(v)));

describe("the served row's ModelInferRequest", () => {
  it("is byte for byte the request protobuf writes for the same model, input, shape, raw features and output", async () => {
    const cases = [rows.slice(0, 1), rows];
    const written = await app(cases.map(requestJob));
    const { requests } = await protobuf({
      requests: cases.map((features) => ({ model: card.name, input: card.onnx.input, output: card.onnx.output, features })),
    });
    expect(written).toEqual(requests);
  }, CALL_MS);

  it("reads back in protobuf as the request it is: the model, one FP32 input of shape [records, 4], its raw features, the output asked for", async () => {
    const [written] = await app([requestJob(rows)]);
    const { parsed } = await protobuf({ parse: [written!] });
    expect(parsed).toEqual([{
      model_name: card.name,
      inputs: [{ name: card.onnx.input, datatype: "FP32", shape: [3, 4] }],
      outputs: [card.onnx.output],
      raw: [rows.flat().map(Math.fround)],
    }]);
  }, CALL_MS);
});

describe("the served row's reading of a ModelInferResponse", () => {
  const risk = (shape: number[]): Tensor => ({ name: card.onnx.output, datatype: "FP32", shape });
  const values = [0.016306607, 0.999930978, 0.5];

  it("reads one FP32 risk per record from raw_output_contents, indexed as the outputs are, past fields it does not use", async () => {
    const { responses } = await protobuf({
      responses: [
        { outputs: [risk([1, 1])], raw: [values.slice(0, 1)] },
        { outputs: [{ name: "other", datatype: "FP32", shape: [3, 1] }, risk([3, 1])], raw: [[9, 9, 9], values], model_name: card.name, id: "7",
          parameters: { note: "skipped" } },
      ],
    });
    const read = await app([risksJob(1, responses[0]!), risksJob(3, responses[1]!)]);
    expect(read.map(floats)).toEqual([values.slice(0, 1).map(Math.fround), values.map(Math.fround)]);
  }, CALL_MS);

  it("reads the tensor's fp32_contents when the answer sends no raw contents", async () => {
    const { responses } = await protobuf({ responses: [{ outputs: [{ ...risk([3, 1]), fp32_contents: values }] }] });
    const [read] = await app([risksJob(3, responses[0]!)]);
    expect(floats(read!)).toEqual(values.map(Math.fround));
  }, CALL_MS);

  it("refuses every wrong answer with a BadAnswer that says what came", async () => {
    const wrong: Array<{ records: number; spec: AnswerSpec; why: RegExp }> = [
      { records: 1, spec: { outputs: [{ ...risk([1, 1]), name: "score" }], raw: [[0.5]] }, why: /has no output 'risk'/ },
      { records: 1, spec: { outputs: [{ ...risk([1, 1]), datatype: "FP64" }], raw: [[0.5]], raw_dtype: "<f8" }, why: /answered 'risk' as FP64, not FP32/ },
      { records: 2, spec: { outputs: [risk([2])], raw: [[0.5, 0.5]] }, why: /of shape \[2\] for 2 records; expected \[2, 1\]/ },
      { records: 1, spec: { outputs: [risk([2, 1])], raw: [[0.5, 0.5]] }, why: /of shape \[2, 1\] for 1 records; expected \[1, 1\]/ },
      { records: 2, spec: { outputs: [risk([2, 1])], raw: [[0.5, 0.5, 0.5]] }, why: /sent 3 values of 'risk' for 2 records/ },
      { records: 1, spec: { outputs: [risk([1, 1])], raw_hex: ["0000003f00"] }, why: /sent 5 raw bytes of 'risk', not whole FP32 values/ },
      { records: 2, spec: { outputs: [risk([2, 1])], raw: [[0.5, "nan"]] }, why: /answered 'risk' with NaN for record 1 of 2: not a risk/ },
      { records: 1, spec: { outputs: [{ ...risk([1, 1]), fp32_contents: ["inf"] }] }, why: /answered 'risk' with Infinity for record 0 of 1: not a risk/ },
    ];
    const { responses } = await protobuf({ responses: wrong.map((w) => w.spec) });
    const read = await app([...wrong.map((w, i) => risksJob(w.records, responses[i]!)), risksJob(1, "ff01")]);
    wrong.forEach((w, i) => expect(read[i]).toMatch(new RegExp(`^BadAnswer: .*${w.why.source}`)));
    expect(read[wrong.length]).toMatch(/^BadAnswer: the model server's answer is not a ModelInferResponse: /);
  }, CALL_MS);
});
