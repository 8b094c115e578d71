"""Does a concurrent canary track a load's CPU per record? Usage: python3 analyse.py OUTDIR [WINDOW_SEC] (after bash run.sh SECS OUTDIR)."""
import json, statistics as st, sys, math
out = sys.argv[1] if len(sys.argv) > 1 else '/tmp/canary'
W = int(sys.argv[2]) if len(sys.argv) > 2 else 15
read = lambda f: [json.loads(l) for l in open(f'{out}/{f}') if l.strip()]
can = read('canary.jsonl')
def corr(a, b):
    ma, mb = st.mean(a), st.mean(b)
    return sum((x-ma)*(y-mb) for x, y in zip(a, b)) / math.sqrt(sum((x-ma)**2 for x in a) * sum((y-mb)**2 for y in b))
t0 = can[0]['t']
def windows(rows, key):
    w = {}
    for r in rows: w.setdefault(int((r['t']-t0)//W), []).append(r[key])
    return w
cw = {k: st.median(v) for k, v in windows(can, 'speed').items()}
for f in sys.argv[3:] or ['py.jsonl', 'node.jsonl']:
    load = read(f)
    # per second: nearest canary reading
    pairs = []
    for r in load:
        c = min(can, key=lambda c: abs(c['t']-r['t']))
        if abs(c['t']-r['t']) < 0.7: pairs.append((r['usPerRecord'], 1/c['speed']))
    lw = {k: st.mean(v) for k, v in windows(load, 'usPerRecord').items()}
    ks = sorted(k for k in lw if k in cw and k-1 in cw and k+1 in cw)[1:-1]
    raw = [lw[k] for k in ks]
    conc = [lw[k]*cw[k] for k in ks]
    neigh = [lw[k]*(cw[k-1]+cw[k+1])/2 for k in ks]
    def pairspread(xs):  # consecutive-window pairs 4 windows apart, like runs minutes apart
        d = [max(a, b)/min(a, b)-1 for a, b in zip(xs, xs[4:])]
        return st.median(d)*100, sum(x > 0.05 for x in d), len(d)
    cv = lambda xs: 100*st.pstdev(xs)/st.mean(xs)
    print(f"{f}: {len(load)} s, per-second corr(µs, 1/canary) {corr(*zip(*pairs)):.2f}")
    for name, xs in (('raw', raw), ('÷ concurrent canary', conc), ('÷ neighbouring canary', neigh)):
        m, over, n = pairspread(xs)
        print(f"  {name:24} {W}-s windows CV {cv(xs):5.1f} %, pairs {W*4}s apart: median spread {m:4.1f} %, over 5 % in {over}/{n}")
sp = [c['speed'] for c in can]
print(f"canary: {len(sp)} readings {min(sp):,.0f}-{max(sp):,.0f} median {st.median(sp):,.0f} CV {100*st.pstdev(sp)/st.mean(sp):.1f} %")
# The two continuous loads against each other: does one track the other's phases?
py, nd = read('py.jsonl'), read('node.jsonl')
n = min(len(py), len(nd))
wp = [st.mean(r['usPerRecord'] for r in py[i:i+W]) for i in range(0, n-W+1, W)]
wn = [st.mean(r['usPerRecord'] for r in nd[i:i+W]) for i in range(0, n-W+1, W)]
ratio = [a/b for a, b in zip(wp, wn)]
d = [max(a, b)/min(a, b)-1 for a, b in zip(ratio, ratio[4:])]
print(f"py and node {W}-s windows: corr {corr(wp, wn):.2f}; "
      f"dearest/cheapest window py {max(wp)/min(wp):.3f}, node {max(wn)/min(wn):.3f}; "
      f"py ÷ node CV {100*st.pstdev(ratio)/st.mean(ratio):.1f} %, "
      f"pairs {W*4}s apart median {100*st.median(d):.1f} %, over 5 % in {sum(x > 0.05 for x in d)}/{len(d)}")
