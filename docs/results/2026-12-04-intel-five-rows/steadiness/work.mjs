// The speed index's work, standalone: a pool of 19-field JSON records, parse + normalise + MLP + encode.
let seed = 13;
const rnd = () => { seed = (seed * 1103515245 + 12345) >>> 0; return seed / 2 ** 32; };
export const records = Array.from({ length: 1024 }, (_, i) => JSON.stringify({
  event_id: `speed-${i}`, ts_ms: i, host: `host-${i % 50}`, region: "eu-west-1", service: "checkout",
  latency_ms: rnd() * 5000, queue_depth: Math.floor(rnd() * 1000), cpu_usage: rnd() * 100, error_count: Math.floor(rnd() * 50),
  a: rnd(), b: rnd(), c: "x".repeat(8), d: i, e: true, f: null, g: rnd(), h: "y", k: i * 2, m: rnd() }));
const net = { w1: Array.from({ length: 64 }, () => rnd() * 2 - 1), b1: Array.from({ length: 16 }, () => rnd() * 2 - 1), w2: Array.from({ length: 17 }, () => rnd() * 2 - 1) };
const maxima = [5000, 1000, 100, 50];
const hidden = new Float64Array(16);
const x = new Float64Array(4);
export let checksum = 0;
export function run(count, offset = 0) {
  for (let i = 0; i < count; i++) {
    const record = JSON.parse(records[(i + offset) % records.length]);
    const metrics = [record.latency_ms, record.queue_depth, record.cpu_usage, record.error_count];
    for (let k = 0; k < 4; k++) x[k] = Math.min(1, Math.max(0, metrics[k] / maxima[k]));
    for (let h = 0; h < 16; h++) {
      let sum = net.b1[h];
      for (let k = 0; k < 4; k++) sum += net.w1[h * 4 + k] * x[k];
      hidden[h] = sum > 0 ? sum : 0;
    }
    let out = net.w2[16];
    for (let h = 0; h < 16; h++) out += net.w2[h] * hidden[h];
    checksum = (checksum + JSON.stringify({ event_id: record.event_id, risk: 1 / (1 + Math.exp(-out)) }).length) >>> 0;
  }
}
