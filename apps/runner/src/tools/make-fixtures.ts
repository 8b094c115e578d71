/** Rewrites fixtures/records.jsonl from the generator and the reference model. */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_COUNT, FIXTURE_SEED, FIXTURE_TS_MS, fixturesDir, makeRecord, modelsDir, normalise, ReferenceModel } from "@bench/core";

const model = await ReferenceModel.load(modelsDir());
const records = Array.from({ length: FIXTURE_COUNT }, (_, seq) => makeRecord(FIXTURE_SEED, seq, FIXTURE_TS_MS + seq));
const features = records.map((r) => normalise(r));
const risks = await model.score(Float32Array.from(features.flat()));
const lines = records.map((record, i) => JSON.stringify({ record, features: features[i], risk: risks[i] }));
writeFileSync(join(fixturesDir(), "records.jsonl"), lines.join("\n") + "\n");
console.log(`wrote ${lines.length} fixture rows to ${join(fixturesDir(), "records.jsonl")}`);
