/**
 * Rewrites the gate's fixtures from the generator and the reference model: fixtures/records.jsonl
 * (the 256 generated records) and fixtures/spellings.jsonl (core's SPELLING_CASES, the records
 * after them respelled; `value` is last on each line, so the near-size-limit case's padding does
 * not hide the other fields from a reader).
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { FIXTURE_SEED, FIXTURE_TS_MS, fixturesDir, GENERATED_FIXTURE_COUNT, makeRecord, modelsDir, normalise, ReferenceModel, spellingRows } from "@bench/core";

const model = await ReferenceModel.load(modelsDir());
const records = Array.from({ length: GENERATED_FIXTURE_COUNT }, (_, seq) => makeRecord(FIXTURE_SEED, seq, FIXTURE_TS_MS + seq));
const features = records.map((r) => normalise(r));
const risks = await model.score(Float32Array.from(features.flat()));
const lines = records.map((record, i) => JSON.stringify({ record, features: features[i], risk: risks[i] }));
writeFileSync(join(fixturesDir(), "records.jsonl"), lines.join("\n") + "\n");
console.log(`wrote ${lines.length} fixture rows to ${join(fixturesDir(), "records.jsonl")}`);

const spellings = spellingRows();
const spellingRisks = await model.score(Float32Array.from(spellings.flatMap((s) => s.features)));
const spellingLines = spellings.map(({ value, ...rest }, i) => JSON.stringify({ ...rest, risk: spellingRisks[i], value }));
writeFileSync(join(fixturesDir(), "spellings.jsonl"), spellingLines.join("\n") + "\n");
console.log(`wrote ${spellingLines.length} spelling rows to ${join(fixturesDir(), "spellings.jsonl")}`);
