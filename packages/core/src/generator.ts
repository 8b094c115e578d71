/**
 * Deterministic record generator. Record `seq` of seed `s` is always the same record, so
 * an output can be checked from its event id alone.
 *
 * Distributions (models/make_model.py draws its training data from the same ones):
 * - latency_ms:  lognormal, median 120 ms, sigma 1.1, two decimals (a few exceed the max)
 * - queue_depth: log-uniform integer in [0, 1200) (about 3% exceed the max of 1000)
 * - cpu_usage:   mean of three uniforms x 100, one decimal, in [0, 100]
 * - error_count: floor(exponential, mean 3); with probability 0.02 a burst adds
 *                floor(uniform x 60) (bursts may exceed the max of 50)
 *
 * To keep gendata far from being the bottleneck, payloads come from a pool of
 * POOL_SIZE pre-built records: record seq carries template (seq mod POOL_SIZE) with its own
 * event_id and ts_ms. Every product sees the same sequence of values.
 */
import { mix32, mulberry32, pick, standardNormal } from "./random.ts";
import { eventIdFor, type InputRecord } from "./schema.ts";

export const POOL_SIZE = 65_536;

const SERVICES = ["checkout", "search", "payments", "inventory", "auth", "catalog", "shipping", "reviews"];
const REGIONS = ["eu-west", "eu-central", "us-east", "us-west", "ap-south"];
const ZONES = ["a", "b", "c"];
const METHODS = ["GET", "GET", "GET", "POST", "PUT", "DELETE"];
const ENDPOINTS = ["/api/v1/orders", "/api/v1/items", "/api/v1/users/me", "/api/v2/search", "/healthz", "/api/v1/cart"];
const VERSIONS = ["1.14.2", "1.14.3", "1.15.0", "2.0.0-rc.1"];

export type RecordTemplate = Omit<InputRecord, "event_id" | "ts_ms">;

export function makeTemplate(seed: number, index: number): RecordTemplate {
  const rng = mulberry32(mix32(seed, index));
  const latency = Math.exp(Math.log(120) + 1.1 * standardNormal(rng));
  const queueDepth = Math.floor(Math.exp(rng() * Math.log(1200))) - 1;
  const cpu = ((rng() + rng() + rng()) / 3) * 100;
  let errors = Math.floor(-Math.log(1 - rng()) * 3);
  if (rng() < 0.02) errors += Math.floor(rng() * 60);
  const service = pick(rng, SERVICES);
  const region = pick(rng, REGIONS);
  const hostNo = Math.floor(rng() * 64);
  const httpStatus = errors > 10 ? pick(rng, [500, 502, 503]) : errors > 4 ? pick(rng, [200, 429, 500]) : pick(rng, [200, 200, 201, 204, 404]);
  const status = httpStatus >= 500 ? "error" : latency > 1000 || errors > 4 ? "degraded" : "ok";
  const traceHi = Math.floor(rng() * 0x1_0000_0000).toString(16).padStart(8, "0");
  const traceLo = Math.floor(rng() * 0x1_0000_0000).toString(16).padStart(8, "0");
  return {
    partition_key: `${service}-${hostNo}`,
    service,
    host: `${service}-${hostNo}.${region}.internal`,
    region,
    zone: `${region}-${pick(rng, ZONES)}`,
    status,
    method: pick(rng, METHODS),
    endpoint: pick(rng, ENDPOINTS),
    http_status: httpStatus,
    latency_ms: Math.round(latency * 100) / 100,
    queue_depth: Math.max(0, queueDepth),
    cpu_usage: Math.round(cpu * 10) / 10,
    error_count: errors,
    bytes_in: 200 + Math.floor(rng() * 4000),
    bytes_out: 500 + Math.floor(rng() * 60_000),
    trace_id: `${traceHi}${traceLo}${traceHi.slice(0, 4)}${traceLo.slice(4)}`,
    app_version: pick(rng, VERSIONS),
  };
}

export function makeRecord(seed: number, seq: number, tsMs: number): InputRecord {
  return { event_id: eventIdFor(seq), ts_ms: tsMs, ...makeTemplate(seed, seq % POOL_SIZE) };
}

/**
 * Builds records as JSON bytes fast: each pooled template is stringified once, and a record
 * is its id and timestamp spliced in front. Field order matches InputRecord.
 */
export class RecordEncoder {
  private readonly tails: string[];
  private readonly keys: string[];

  constructor(readonly seed: number) {
    this.tails = new Array<string>(POOL_SIZE);
    this.keys = new Array<string>(POOL_SIZE);
    for (let i = 0; i < POOL_SIZE; i++) {
      const template = makeTemplate(seed, i);
      this.tails[i] = JSON.stringify(template).slice(1); // drop the opening brace
      this.keys[i] = template.partition_key;
    }
  }

  encode(seq: number, tsMs: number): { key: string; value: string } {
    const i = seq % POOL_SIZE;
    return { key: this.keys[i] as string, value: `{"event_id":"${eventIdFor(seq)}","ts_ms":${tsMs},${this.tails[i]}` };
  }
}
