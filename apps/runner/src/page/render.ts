/**
 * Renders the page (the seed's shape) from results. Pure: the same results give the same
 * bytes, so a committed results file and its page can be checked against each other.
 */
import { FIXTURE_COUNT } from "@bench/core";
import { DRIFT_TOLERANCE, RATE_TOLERANCE } from "../metrics/derive.ts";
import type { BenchResults, RunResult } from "../results/types.ts";
import { dec1, dec2, dec4, int, sci, signedPercent, table } from "./format.ts";

/** The selectivity every product must show: every record scored and republished. */
const EXPECTED_SELECTIVITY = 1.0;
const SELECTIVITY_TOLERANCE = 0.25;

export function productLabel(run: RunResult): string {
  const version = run.versions[run.product] ?? run.versions[run.product.split("-")[0] as string];
  return version ? `${run.product} ${version}` : run.product;
}

/**
 * One run per product: for a swept product the last keep-up run at its knee, otherwise the
 * product's last ok run (or its last run, when none was ok).
 */
export function rowsOf(results: BenchResults): { measured: RunResult[]; notRun: RunResult[] } {
  const byProduct = new Map<string, RunResult>();
  for (const run of results.runs) {
    const kept = byProduct.get(run.product);
    if (!kept || run.status === "ok" || kept.status !== "ok") byProduct.set(run.product, run);
  }
  for (const sweep of results.sweeps ?? []) {
    const atKnee = results.runs.filter(
      (r) => r.product === sweep.product && r.status === "ok" && r.settings.offeredRate === sweep.knee && r.throughput?.regime === "keep-up",
    );
    const knee = atKnee[atKnee.length - 1];
    if (knee) byProduct.set(sweep.product, knee);
  }
  const all = [...byProduct.values()];
  return { measured: all.filter((r) => r.status === "ok"), notRun: all.filter((r) => r.status !== "ok") };
}

function latencyCell(run: RunResult): string {
  if (run.throughput?.regime !== "keep-up") return "unbounded";
  const l = run.delivery?.latencyMs;
  return l ? `${int(l.p50)} / ${int(l.p99)} / ${int(l.max)}` : "–";
}

export function renderPage(results: BenchResults): string {
  const { measured, notRun } = rowsOf(results);
  const all = [...measured, ...notRun];
  const day = results.generatedAt.slice(0, 10);
  const out: string[] = [];

  out.push("# Model Inference", "");
  out.push(
    "Score every record with the SAME frozen 4-16-1 PyTorch MLP (models/, trained once by models/make_model.py). No filter, so selectivity is 1.0 — this prices what each framework costs around a forward pass: decode, feature extraction, the call itself, encode, produce. The model is deliberately tiny so the frameworks, not the matmul, are what is measured. Each product is benched at one offered rate per run; a row's regime says whether that rate was sustainable (its knee) or beyond it.",
    "",
    `Last updated: ${day} · same-machine, relative comparison.`,
    "",
    "## Bench characteristics",
    "",
    "In-process computation — Per record: four gendata metrics (latency_ms, queue_depth, cpu_usage, error_count) divided by their documented maxima (5000, 1000, 100, 50) and clipped into [0, 1], fed to a frozen 4-16-1 MLP (Linear/ReLU/Linear/Sigmoid) → risk. Stateless; every record is scored and republished as {event_id, ts_ms, risk}.",
    "",
  );
  out.push(
    table(
      ["product", "delivery", "processing", "engine", "scaling on one partition", "decode"],
      all.map((r) => [productLabel(r), r.row.delivery, r.row.processing, r.row.engine, r.row.scaling, r.row.decode]),
    ),
    "",
    "Input is a single Kafka partition (lz4, JSON, 19 fields per record). Each product may spread it over several cores through its own in-process mechanism (what it actually used is cpu_avg); an in-process exchange is not a broker hop — the extra rec/rec column counts records that DID cross the broker on other topics. Every product first scores the committed fixture records and is timed only if every risk matches the reference model (the sanity table).",
    "",
    "Consumer fetch: every librdkafka consumer runs with fetch.min.bytes=64 KB, fetch.wait.max.ms=10, max.partition.fetch.bytes=50 MB and a 500k-message / ~2 GB prefetch queue (the settings Turbine's core hard-codes); other clients' equivalents and deviations are listed under each row.",
    "",
    "## Throughput / efficiency",
    "",
  );
  out.push(
    table(
      ["product", "offered/s", "consumed/s", "regime", "lag drift", "cpu_avg %", "rows/s per core", "rows/s per GB", "µs CPU / inference", "output/s", "extra rec/rec", "latency p50 / p99 / max ms", "run"],
      measured.map((r) => {
        const t = r.throughput!;
        return [
          productLabel(r), int(t.offeredPerSec), int(t.consumedPerSec), t.regime, signedPercent(t.lagDrift), dec1(t.cpuAvg),
          int(t.rowsPerCore), int(t.rowsPerGb), dec2(t.cpuMicrosPerInference), int(t.outputPerSec), dec2(t.extraRecordsPerRecord),
          latencyCell(r), r.startedAt.slice(0, 10),
        ];
      }),
    ),
    "",
    `consumed/s is what the product actually drained (its consumer-group offset or engine counter), offered/s what gendata produced (the input topic's high watermark). regime: keep-up = consumed within ${RATE_TOLERANCE * 100}% of offered with a flat backlog (|lag drift| ≤ ${DRIFT_TOLERANCE * 100}%, a sustainable point); saturated = fed beyond capacity, so consumed/s IS the ceiling and latency is unbounded; draining = still eating warmup backlog. lag drift = backlog growth over the window (least-squares trend) ÷ records consumed. cpu_avg is the whole process tree, 100 = one core busy. rows/s per core = consumed ÷ (cpu_avg/100); rows/s per GB = consumed ÷ memory; extra rec/rec = records written to topics other than the input and output per record consumed (0 = no broker hop). Latency runs from the input record's produce time to the output record's broker timestamp (LogAppendTime), over the window's records.`,
    "",
    "## Resources (raw)",
    "",
  );
  out.push(
    table(
      ["product", "cpu_avg %", "cpu_p95 %", "mem_avg MB", "mem_max MB", "samples", "instrument"],
      measured.map((r) => {
        const m = r.resources!;
        return [productLabel(r), dec1(m.cpuAvg), dec1(m.cpuP95), dec1(m.memAvgMb), dec1(m.memMaxMb), String(m.samples), `/proc Δ, ${m.instrument}`];
      }),
    ),
    "",
    "CPU is summed over the whole process tree (JVMs, Python workers, UDF servers), found afresh each second, as utime+stime deltas per 1 s sample — 100 = one core. Memory is PSS (shared pages counted once) where readable, RSS otherwise (instrument). The broker, gendata and the runner are never in a product's tree; their cost is listed below.",
    "",
    "## Notes per product",
    "",
  );
  for (const r of all) {
    const parts = [...r.notes];
    const versions = Object.entries(r.versions).map(([k, v]) => `${k} ${v}`).join(", ");
    if (versions) parts.push(`Versions: ${versions}.`);
    for (const d of r.deviations) parts.push(`Deviation: ${d}`);
    if (r.consumedSource) parts.push(`consumed read from ${r.consumedSource}.`);
    const sweep = results.sweeps?.find((w) => w.product === r.product);
    if (sweep) {
      parts.unshift(
        `SWEPT — knee ${sweep.knee !== undefined ? `${int(sweep.knee)}/s${sweep.confirmed ? " (confirmed by a repeat)" : " (NOT confirmed)"}` : "not found"}, ceiling ${sweep.ceiling !== undefined ? `${int(sweep.ceiling)}/s` : "not reached"}: ${sweep.stoppedBecause}`,
      );
    } else if (r.status === "ok") {
      parts.unshift(`NOT SWEPT — one run at ${int(r.settings.offeredRate)}/s offered; its regime says whether that is at or beyond the knee.`);
    }
    if (r.status === "ok") parts.push(`Run at ${int(r.settings.offeredRate)}/s offered, ${r.settings.warmupSec} s warmup, ${r.settings.windowSec} s window, parallelism ${r.settings.parallelism}.`);
    else parts.unshift(`NOT RUN — ${(r.reason ?? "no reason recorded").split("\n")[0]}`);
    for (const w of r.gendataWarnings) parts.push(`⚠ ${w}`);
    out.push(`**${productLabel(r)}** — ${parts.join(" ")}`, "");
  }

  for (const sweep of results.sweeps ?? []) {
    out.push(`## Sweep — ${sweep.product}`, "");
    out.push(
      table(
        ["step", "purpose", "asked/s", "offered/s", "consumed/s", "regime", "lag drift", "cpu_avg %"],
        sweep.steps.map((st, i) => [
          String(i + 1), st.purpose, int(st.rate), int(st.offeredPerSec), int(st.consumedPerSec),
          st.failed ? `failed: ${st.failed}` : st.gendataShort ? `${st.regime ?? "–"} (gendata short)` : (st.regime ?? "–"),
          st.lagDrift !== undefined ? signedPercent(st.lagDrift) : "–", st.cpuAvg !== undefined ? dec1(st.cpuAvg) : "–",
        ]),
      ),
      "",
      `Knee ${sweep.knee !== undefined ? `${int(sweep.knee)}/s` : "not found"}${sweep.confirmed ? " (confirmed)" : ""}; ceiling ${sweep.ceiling !== undefined ? `${int(sweep.ceiling)}/s` : "not reached"}. ${sweep.stoppedBecause}`,
      "",
    );
  }

  out.push("## Sanity — are we benching the same thing?", "");
  let allMatch = measured.length > 0;
  out.push(
    table(
      ["product", "selectivity (out/consumed)", "expected", "verified (fixtures)", "lost", "duplicated", "scores checked", "largest error", "✓"],
      measured.map((r) => {
        const d = r.delivery;
        const selectivityOk = Math.abs((r.selectivity ?? 0) - EXPECTED_SELECTIVITY) <= SELECTIVITY_TOLERANCE * EXPECTED_SELECTIVITY;
        const scoresOk = (r.delivery?.maxScoreError ?? 0) <= 1e-5 && (r.verification?.passed ?? false);
        const ok = selectivityOk && scoresOk && (d?.lost ?? 1) === 0;
        allMatch &&= ok;
        return [
          productLabel(r), dec4(r.selectivity ?? 0), dec4(EXPECTED_SELECTIVITY), `${r.verification?.checked ?? 0}/${FIXTURE_COUNT}`,
          int(d?.lost ?? 0), int(d?.duplicated ?? 0), int(d?.scoresChecked ?? 0), sci(d?.maxScoreError ?? 0), ok ? "✓" : "✗",
        ];
      }),
    ),
    "",
    allMatch
      ? `Verdict: ✓ matches theory — every row's selectivity is within ${SELECTIVITY_TOLERANCE * 100}% of the expected value, nothing was lost, and every checked score equals the reference model's within 1e-5.`
      : "Verdict: ✗ at least one row does not match (see ✗ above): its figures do not price the same work.",
    "",
  );
  if (notRun.length > 0) {
    out.push("## Not run on this machine", "");
    for (const r of notRun) out.push(`- **${r.product}** — ${(r.reason ?? "").replace(/\n/g, " ").slice(0, 600)}`);
    out.push("");
  }
  const h = results.host;
  out.push(`Host: ${h.cpu} · ${h.cores} cores / ${h.threads} threads · ${int(h.memoryMb)} MB · kernel ${h.kernel} · ${h.os}.`, "");
  out.push(`Broker: ${results.broker.name} ${results.broker.version} (single node, KRaft${results.broker.startedByRunner ? ", started by the runner" : ", given with --bootstrap"}). Broker, gendata and the product under test share this host.`, "");
  const costs = measured.filter((r) => r.harness).map((r) => r.harness!);
  if (costs.length > 0) {
    const avg = (f: (c: (typeof costs)[number]) => number): string => dec1(costs.reduce((a, c) => a + f(c), 0) / costs.length);
    out.push(
      `Harness cost (average over the measured windows, 100 = one core): sampler ${avg((c) => c.samplerCpuPercent)}, runner in all ${avg((c) => c.runnerCpuPercent)}, gendata ${avg((c) => c.gendataCpuPercent)}, broker ${avg((c) => c.brokerCpuPercent)}.`,
      "",
    );
  }
  return out.join("\n");
}
