"""A Python product-like load: parse, normalise, MLP, encode without pause; each second its CPU per record."""
import json, math, random, time
random.seed(13)
records = [json.dumps({"event_id": f"speed-{i}", "ts_ms": i, "host": f"host-{i%50}", "latency_ms": random.random()*5000,
    "queue_depth": random.randrange(1000), "cpu_usage": random.random()*100, "error_count": random.randrange(50),
    "a": random.random(), "b": random.random(), "c": "x"*8, "d": i, "e": True, "f": None}) for i in range(1024)]
w1 = [random.uniform(-1, 1) for _ in range(64)]; b1 = [random.uniform(-1, 1) for _ in range(16)]; w2 = [random.uniform(-1, 1) for _ in range(17)]
maxima = (5000, 1000, 100, 50)
def score(line):
    r = json.loads(line)
    x = [min(1.0, max(0.0, v / m)) for v, m in zip((r["latency_ms"], r["queue_depth"], r["cpu_usage"], r["error_count"]), maxima)]
    out = w2[16]
    for h in range(16):
        s = b1[h] + sum(w1[h*4+k]*x[k] for k in range(4))
        if s > 0: out += w2[h]*s
    return json.dumps({"event_id": r["event_id"], "risk": 1/(1+math.exp(-out))})
n = 0; last_t = time.time(); last_cpu = time.process_time_ns(); last_n = 0
while True:
    for _ in range(200):
        score(records[n % 1024]); n += 1
    now = time.time()
    if now - last_t >= 1:
        cpu = time.process_time_ns()
        print(json.dumps({"t": now, "usPerRecord": (cpu-last_cpu)/1e3/(n-last_n), "wallShare": (cpu-last_cpu)/1e9/(now-last_t)}), flush=True)
        last_t, last_cpu, last_n = now, cpu, n
