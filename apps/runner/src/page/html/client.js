// Runs in the page (inlined by render-html.ts, after d3 and Observable Plot): draws every chart
// listed in the page's data from the same data. Plain browser JavaScript, no imports.
(function () {
  "use strict";
  const data = JSON.parse(document.getElementById("bench-data").textContent);
  const regimes = { domain: ["keep-up", "draining", "saturated", "invalid"], range: ["#2a9d3f", "#f0a202", "#d62728", "#888888"] };
  const width = 360;
  const height = 280;
  const wide = 560;
  const fmt = (n) => Math.round(n).toLocaleString("en-US");

  function sweep(p) {
    const max = Math.max(1, ...p.points.map((d) => Math.max(d.offered, d.consumed)));
    const marks = [
      Plot.line([[0, 0], [max, max]], { stroke: "#bbb", strokeDasharray: "4 3" }),
      Plot.dot(p.points, {
        x: "offered", y: "consumed", fill: "regime", r: 5, stroke: "white",
        title: (d) => `${d.purpose}: offered ${fmt(d.offered)}/s, consumed ${fmt(d.consumed)}/s, ${d.regime}${d.noisy ? ", noisy" : ""}`,
      }),
      // A cross over a run on a machine that was not quiet (a path, not a circle: dots stay one per run).
      Plot.dot(p.points.filter((d) => d.noisy), { x: "offered", y: "consumed", symbol: "times", stroke: "black", r: 7 }),
    ];
    if (p.knee !== undefined) {
      marks.push(Plot.ruleX([p.knee], { stroke: "#2a9d3f", strokeDasharray: "6 3" }));
      marks.push(Plot.text([p.knee], { x: (d) => d, frameAnchor: "top", dx: 4, textAnchor: "start", text: (d) => `knee ${fmt(d)}/s${p.confirmed ? "" : " (not confirmed)"}` }));
    }
    if (p.ceiling !== undefined) {
      marks.push(Plot.ruleY([p.ceiling], { stroke: "#d62728", strokeDasharray: "6 3" }));
      marks.push(Plot.text([p.ceiling], { y: (d) => d, frameAnchor: "left", dy: -6, textAnchor: "start", text: (d) => `ceiling ${fmt(d)}/s` }));
    }
    return Plot.plot({
      width, height, grid: true, marginLeft: 55,
      x: { label: "offered records/s", domain: [0, max * 1.05], nice: true },
      y: { label: "consumed records/s", domain: [0, max * 1.05], nice: true },
      color: { ...regimes, legend: true },
      marks,
    });
  }

  function cpu(p) {
    return Plot.plot({
      width, height, grid: true, marginLeft: 55,
      x: { label: "offered records/s", zero: true },
      y: { label: "CPU of the product's tree, % (100 = one core)", zero: true, nice: true },
      color: { ...regimes, legend: true },
      marks: [Plot.dot(p.points, { x: "offered", y: "cpu", fill: "regime", r: 5, title: (d) => `${fmt(d.offered)}/s: ${d.cpu.toFixed(1)} %` })],
    });
  }

  function latency(p) {
    const points = p.points
      .filter((d) => d.p50 !== undefined)
      .flatMap((d) => [{ offered: d.offered, ms: d.p50, q: "p50" }, { offered: d.offered, ms: d.p99, q: "p99" }]);
    return Plot.plot({
      width, height, grid: true, marginLeft: 55,
      x: { label: "offered records/s", zero: true },
      y: { label: "end-to-end latency, ms", zero: true, nice: true },
      color: { domain: ["p50", "p99"], range: ["#1f77b4", "#9467bd"], legend: true },
      marks: [Plot.dot(points, { x: "offered", y: "ms", fill: "q", r: 5, title: (d) => `${d.q} ${d.ms.toFixed(0)} ms at ${fmt(d.offered)}/s` })],
    });
  }

  // One product a line, values along x: a row's label gets its own line however many rows the
  // page has, where names side by side under a 560-pixel axis would run into each other.
  function byProduct(products, x, marks, extra) {
    const longest = Math.max(...products.map((p) => p.length));
    return Plot.plot({
      width: wide, height: 60 + 22 * products.length, grid: true, marginLeft: 12 + Math.ceil(6.5 * longest), marginRight: 20,
      y: { label: null, domain: products },
      x, marks, ...extra,
    });
  }

  function atKnee(field, label) {
    return byProduct(data.spreads.map((s) => s.product), { label, zero: true, nice: true }, [
      Plot.ruleY(data.spreads, { y: "product", x1: (s) => s[field].min, x2: (s) => s[field].max, stroke: "#555", strokeWidth: 2 }),
      Plot.tickX(data.spreads, { y: "product", x: (s) => s[field].median, stroke: "black", strokeWidth: 2 }),
      Plot.dot(data.atKnee, { y: "product", x: field, fill: "#1f77b4", r: 4, title: (d) => `${d.label} at ${fmt(d.rate)}/s: ${d[field].toFixed(field === "usPerInference" ? 2 : 0)}` }),
    ]);
  }

  const productsOf = (rows) => [...new Set(rows.map((d) => d.product))];

  function harness() {
    return byProduct(productsOf(data.harness), { label: "CPU %, 100 = one core (average over the windows)", nice: true }, [
      Plot.barX(data.harness, { y: "product", x: "cpu", fill: "component", title: (d) => `${d.component}: ${d.cpu.toFixed(1)} %` }),
      Plot.ruleX([0]),
    ], { color: { domain: ["sampler", "runner", "gendata", "broker"], legend: true } });
  }

  function speed() {
    return Plot.plot({
      width: wide, height: 260, grid: true, marginLeft: 70,
      x: { label: "run (order in the results)" },
      y: { label: "speed index (reference records per CPU-second)", zero: true, nice: true },
      color: { legend: true },
      marks: [
        Plot.dot(data.speed, { x: "run", y: "speedIndex", fill: "product", r: 4, title: (d) => `${d.product} run ${d.run} ${d.when}: ${fmt(d.speedIndex)}${d.noisy ? ", noisy" : ""}` }),
        Plot.dot(data.speed.filter((d) => d.noisy), { x: "run", y: "speedIndex", symbol: "times", stroke: "black", r: 6 }),
      ],
    });
  }

  function breakdown() {
    return byProduct(productsOf(data.breakdown), { label: "% of the product tree's CPU", domain: [0, 100] }, [
      Plot.barX(data.breakdown, { y: "product", x: "share", fill: "category", title: (d) => `${d.category}: ${d.share.toFixed(1)} % · ${d.microsPerRecord.toFixed(2)} µs per record` }),
      Plot.ruleX([0]),
    ], { color: { domain: ["fetch", "decode", "features", "model", "encode", "produce", "runtime", "other"], legend: true } });
  }

  const draw = {
    sweep, cpu, latency,
    "knee-rows-per-core": () => atKnee("rowsPerCore", "rows/s per core"),
    "knee-us-per-inference": () => atKnee("usPerInference", "µs CPU per inference"),
    harness, "speed-index": speed, "cpu-breakdown": breakdown,
  };
  let drawn = 0;
  for (const spec of data.charts) {
    const figure = document.querySelector(`figure[data-chart="${spec.id}"] .plot`);
    const [kind, ...rest] = spec.id.split("-");
    const product = data.products.find((p) => p.product === rest.join("-"));
    const fn = draw[spec.id] ?? (product ? draw[kind] : undefined);
    if (!fn) { console.error(`no way to draw ${spec.id}`); continue; }
    if (spec.expected === 0) { figure.textContent = spec.empty; drawn++; continue; }
    try {
      figure.append(fn(product));
      drawn++;
    } catch (error) {
      console.error(`chart ${spec.id} failed: ${error && error.stack ? error.stack : error}`);
    }
  }
  document.body.dataset.chartsDrawn = String(drawn);
})();
