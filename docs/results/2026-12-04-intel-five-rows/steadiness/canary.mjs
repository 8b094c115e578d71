// Every PERIOD ms: one repetition of REP records, its CPU µs (process.cpuUsage) printed with the wall time.
import { run } from "./work.mjs";
const REP = Number(process.env.REP ?? 3000), PERIOD = Number(process.env.PERIOD ?? 1000);
run(20000);
setInterval(() => {
  const before = process.cpuUsage();
  run(REP);
  const used = process.cpuUsage(before);
  console.log(JSON.stringify({ t: Date.now() / 1000, speed: REP / ((used.user + used.system) / 1e6) }));
}, PERIOD);
