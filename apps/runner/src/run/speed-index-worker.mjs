// The speed index's timed work (see speed-index.ts), in plain JavaScript so that every isolate
// runs the same code whatever transpiler loaded the runner. Posts each repetition's CPU
// microseconds and a checksum of the work.
import { parentPort, workerData } from "node:worker_threads";

const { records, net, perRep, reps, warmup } = workerData;
const maxima = [5000, 1000, 100, 50];
const hidden = new Float64Array(16);
const x = new Float64Array(4);
let checksum = 0;

/** What a product does to a record: decode, normalise, a 4-16-1 MLP forward, encode. */
function run(count) {
  for (let i = 0; i < count; i++) {
    const record = JSON.parse(records[i % records.length]);
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

run(warmup); // until the JIT has settled on the hot loop
const cpuMicros = [];
for (let r = 0; r < reps; r++) {
  checksum = 0;
  const before = process.cpuUsage();
  run(perRep);
  const used = process.cpuUsage(before);
  cpuMicros.push(used.user + used.system);
}
parentPort.postMessage({ cpuMicros, checksum });
