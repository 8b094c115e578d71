// A product-like load: the same work without pause; each second its CPU per record.
import { run } from "./work.mjs";
run(20000);
let last = { t: Date.now(), cpu: process.cpuUsage(), n: 0 };
let n = 0;
for (;;) {
  run(1000, n); n += 1000;
  const now = Date.now();
  if (now - last.t >= 1000) {
    const used = process.cpuUsage(last.cpu);
    console.log(JSON.stringify({ t: now / 1000, usPerRecord: (used.user + used.system) / (n - last.n), wallShare: (used.user + used.system) / 1000 / (now - last.t) }));
    last = { t: now, cpu: process.cpuUsage(), n };
  }
}
