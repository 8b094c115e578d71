/**
 * The committed verification sample (fixtures/records.jsonl): records the generator made,
 * with their features and the reference model's risk. Every adapter's tests score these;
 * the bench's verification gate does too, before any timing.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { FeatureVector } from "./features.ts";
import type { InputRecord } from "./schema.ts";

export const FIXTURE_SEED = 42;
/** Records in records.jsonl; the spelling cases follow them (FIXTURE_COUNT counts both, gate-records.ts). */
export const GENERATED_FIXTURE_COUNT = 256;
/** A fixed timestamp keeps the file byte-for-byte reproducible. */
export const FIXTURE_TS_MS = 1_767_225_600_000;

export interface FixtureRow {
  record: InputRecord;
  features: FeatureVector;
  risk: number;
}

export function loadFixtures(fixturesDir: string): FixtureRow[] {
  return readFileSync(join(fixturesDir, "records.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as FixtureRow);
}
