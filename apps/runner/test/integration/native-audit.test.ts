/**
 * The audit's two readers against the real broker: core's native output reader and the
 * JavaScript binding account for the same topic alike (lost, duplicated, bad outputs, scores,
 * latency), whether one reader reads it or two split it, including outputs that only the
 * runner's own reading accepts (an escaped event_id, a repeated key, a byte-order mark) and
 * outputs that neither does.
 */
import {
  buildOutputReader,
  cacheRoot,
  KafkaAdmin,
  makeTemplate,
  modelsDir,
  normalise,
  POOL_SIZE,
  produceMessages,
  ReferenceModel,
  type KeyedValue,
} from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { auditOutputs } from "../../src/run/audit.ts";

const bootstrap = requireBootstrap();
const SEED = 42;
const PRODUCED = 20_000;
const LOST = [100, 101, 102, 103, 104, 105, 106, 107, 108, 109];
// A minute ago: latency (the broker's append time minus ts_ms) stays within what the histogram tracks.
const TS_MS = Date.now() - 60_000;

/** Outputs a row might write: each seq once (but the lost), five written twice, one mis-scored, and oddities. */
async function outputs(reference: ReferenceModel): Promise<KeyedValue[]> {
  const features = Float32Array.from(Array.from({ length: PRODUCED }, (_, seq) => normalise(makeTemplate(SEED, seq % POOL_SIZE))).flat());
  const risks = await reference.score(features);
  const out = (seq: number, risk: unknown = risks[seq]): KeyedValue => ({
    key: null,
    value: JSON.stringify({ event_id: `e${seq}`, ts_ms: TS_MS + seq, risk }),
  });
  const all: KeyedValue[] = [];
  for (let seq = 0; seq < PRODUCED; seq++) if (!LOST.includes(seq)) all.push(out(seq, seq === 400 ? -1 : risks[seq]));
  for (const seq of [200, 201, 202, 203, 204]) all.push(out(seq));
  const usableOddities = [
    `{"event_id":"\\u0065300","ts_ms":5,"risk":${risks[300]}}`,
    `{"event_id":"e9","event_id":"e301","risk":${risks[301]}}`,
    `\uFEFF{"event_id":"e302","risk":${risks[302]}}`,
    `{"event_id":"e303","ts_ms":"17","risk":${risks[303]}}`,
    `{"event_id":"e304/label","ts_ms":null,"risk":${risks[304]}}`,
  ];
  const bad: Array<string | Buffer> = [
    "not json",
    `["e5",1,0.5]`,
    `{"event_id":"e1","risk":null}`,
    `{"event_id":"e99999999","risk":0.5}`,
    `{"ts_ms":1,"risk":0.5}`,
    Buffer.from([0xff, 0xfe]),
    Buffer.alloc(0),
  ];
  return [...all, ...usableOddities.map((value) => ({ key: null, value })), ...bad.map((value) => ({ key: null, value }))];
}

describe("the audit's native reader", () => {
  let admin: KafkaAdmin;
  let reference: ReferenceModel;
  let reader: string;
  const topic = `bench.native-audit.${Date.now()}.out`;
  let outputEnd = 0;

  beforeAll(async () => {
    const built = await buildOutputReader(cacheRoot(), () => undefined);
    if (!("binary" in built)) throw new Error(`the native output reader did not build: ${built.why}`);
    reader = built.binary;
    admin = await KafkaAdmin.connect(bootstrap);
    reference = await ReferenceModel.load(modelsDir());
    await admin.createTopics([{ name: topic, config: { "message.timestamp.type": "LogAppendTime" } }]);
    const written = await outputs(reference);
    await produceMessages(bootstrap, topic, written);
    outputEnd = await admin.endOffset(topic);
    expect(outputEnd).toBe(written.length);
  }, 600_000);
  afterAll(async () => {
    await admin?.deleteTopics([topic]).catch(() => undefined);
    await admin?.close();
  });

  const audit = (readers: number, native: boolean) =>
    auditOutputs(
      {
        bootstrap,
        outputTopic: topic,
        produced: PRODUCED,
        outputEnd,
        seed: SEED,
        reference,
        passthrough: false,
        tolerance: reference.card.tolerance,
        windowMs: [TS_MS, TS_MS + PRODUCED / 2],
        moreWindowsMs: [[TS_MS + PRODUCED / 2, TS_MS + PRODUCED]],
        readers,
        ...(native ? { reader } : {}),
      },
    );

  it("accounts for every output as the binding does, read by one reader or split between two", async () => {
    const binding = await audit(1, false);
    expect(binding).toMatchObject(
      { produced: PRODUCED, distinctOutputs: PRODUCED - LOST.length, lost: LOST.length, duplicated: 10, badOutputs: 7, misScored: 1 },
    );
    expect(binding.badOutputSamples?.map((b) => b.why)).toEqual(
      ["not JSON", "not a JSON object", "risk null is not a number", 'event_id "e99999999" was never produced', "no event_id"],
    );
    expect(binding.latencyMs?.count).toBeGreaterThan(0);
    expect(binding.latencyByWindow?.[0]?.count).toBeGreaterThan(0);
    expect(await audit(1, true)).toEqual(binding);
    expect(await audit(2, true)).toEqual(binding);
  }, 300_000);
});
