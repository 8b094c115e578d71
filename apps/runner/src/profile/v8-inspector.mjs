// Profiles a running Node process with V8's own CPU profiler, from outside: SIGUSR1 opens its
// inspector (Node's documented way to attach to a process started without --inspect), then the
// inspector protocol's Profiler domain records `seconds` and the profile is written as a
// .cpuprofile. Plain .mjs run with --experimental-websocket: Node 20 has no WebSocket otherwise.
// Usage: node --experimental-websocket v8-inspector.mjs PID SECONDS OUT.cpuprofile
import { writeFileSync } from "node:fs";

const [pid, seconds, out] = [Number(process.argv[2]), Number(process.argv[3]), process.argv[4]];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

process.kill(pid, "SIGUSR1");
let target;
for (let i = 0; i < 50 && !target; i++) {
  await sleep(100);
  try {
    target = (await (await fetch("http://127.0.0.1:9229/json/list")).json())[0];
  } catch {
    // the inspector is not listening yet
  }
}
if (!target) throw new Error("the inspector did not open on 127.0.0.1:9229 after SIGUSR1");

const ws = new WebSocket(target.webSocketDebuggerUrl);
await new Promise((resolve, reject) => {
  ws.onopen = resolve;
  ws.onerror = () => reject(new Error("cannot connect to the inspector"));
});
let nextId = 1;
const pending = new Map();
ws.onmessage = (event) => {
  const msg = JSON.parse(event.data);
  const p = pending.get(msg.id);
  if (!p) return;
  pending.delete(msg.id);
  if (msg.error) p.reject(new Error(`${msg.error.message}`));
  else p.resolve(msg.result);
};
const send = (method, params = {}) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    pending.set(id, { resolve, reject });
    ws.send(JSON.stringify({ id, method, params }));
  });

// The inspector on 9229 must be the process we signalled, not another Node process's.
const who = await send("Runtime.evaluate", { expression: "process.pid" });
if (who.result.value !== pid) throw new Error(`the inspector on 9229 belongs to pid ${who.result.value}, not ${pid}`);
await send("Profiler.enable");
await send("Profiler.setSamplingInterval", { interval: 1000 });
await send("Profiler.start");
await sleep(seconds * 1000);
const { profile } = await send("Profiler.stop");
writeFileSync(out, JSON.stringify(profile));
await send("Profiler.disable");
// Close the inspector again, so the product runs on as it was started. No reply comes: closing
// it drops this connection.
void send("Runtime.evaluate", { expression: "process._debugEnd && process._debugEnd()" }).catch(() => undefined);
setTimeout(() => process.exit(0), 300);
