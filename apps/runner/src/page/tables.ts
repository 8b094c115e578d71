/**
 * The page's tables, one function a section, each given the rows it shows. The prose that
 * explains them is in prose.ts.
 */
import { consumerSettingsProse, GENERATED_FIXTURE_COUNT, KAFKA_SETTINGS } from "@bench/core";
import { SETTLE_RULE } from "../metrics/settle.ts";
import type { BenchResults, RunResult, ScenarioRow, SweepRecord } from "../results/types.ts";
import { FOREIGN_CPU_LIMIT, STEAL_LIMIT } from "../run/judge.ts";
import { dec1, dec2, dec4, int, sci, signedPercent, table } from "./format.ts";
import { FOREIGN_LOAD_NOTE, RESOURCES_NOTE, SPREAD_NOTE, throughputDefinitions } from "./prose.ts";
import { noisyShort, productLabel, runMark, spreadOf } from "./rows.ts";
import { hasTimedRuns, microsAtReference, speedSentence } from "./speed.ts";
import { sweepOf } from "../results/sweeps.ts";

/** The selectivity every product must show: every record scored and republished. */
const EXPECTED_SELECTIVITY = 1.0;
const SELECTIVITY_TOLERANCE = 0.25;

export const dash = "–";
/** A cell from a run's throughput row, or a dash for a run that has none (an invalid gate). */
const fig = (r: RunResult, f: (t: NonNullable<RunResult["throughput"]>) => string): string => (r.throughput ? f(r.throughput) : dash);

function latencyCell(run: RunResult): string {
  if (!run.throughput) return dash;
  if (run.throughput.regime !== "keep-up") return "unbounded";
  const l = run.delivery?.latencyMs;
  return l ? `${int(l.p50)} / ${int(l.p99)} / ${int(l.max)}` : dash;
}

export function throughputSection(measured: readonly RunResult[]): string[] {
  if (measured.length === 0) return [];
  return [
    "## Throughput / efficiency",
    "",
    table(
      [
        "product",
        "offered/s",
        "consumed/s",
        "regime",
        "lag drift",
        "cpu_avg %",
        "rows/s per core",
        "rows/s per GB",
        "µs CPU / inference",
        "µs @ ref",
        "output/s",
        "extra rec/rec",
        "latency p50 / p99 / max ms",
        "run",
        "counts?",
      ],
      measured.map((r) => [
        productLabel(r), fig(r, (t) => int(t.offeredPerSec)), fig(r, (t) => int(t.consumedPerSec)), fig(r, (t) => t.regime),
        fig(r, (t) => signedPercent(t.lagDrift)), fig(r, (t) => dec1(t.cpuAvg)), fig(r, (t) => int(t.rowsPerCore)), fig(r, (t) => int(t.rowsPerGb)),
        fig(r, (t) => dec2(t.cpuMicrosPerInference)), atReferenceCell(r), fig(r, (t) => int(t.outputPerSec)), fig(r, (t) => dec2(t.extraRecordsPerRecord)),
        latencyCell(r), r.startedAt.slice(0, 10), runMark(r) ?? "✓",
      ]),
    ),
    "",
    throughputDefinitions(),
    "",
  ];
}

export function spreadSection(results: BenchResults, measured: readonly RunResult[]): string[] {
  const spreads = measured.map((r) => [r, spreadOf(results, r)] as const).filter(([, s]) => s !== undefined && s.runs > 1);
  if (spreads.length === 0) return [];
  return [
    "### Spread over repeats",
    "",
    table(
      ["product", "rate/s", "runs", "rows/s per core min / median / max", "µs CPU / inference min / median / max", "µs @ ref min / median / max"],
      spreads.map(([r, s]) => [
        productLabel(r), int(r.settings.offeredRate), String(s!.runs),
        `${int(s!.rowsPerCore.min)} / ${int(s!.rowsPerCore.median)} / ${int(s!.rowsPerCore.max)}`,
        `${dec2(s!.cpuMicrosPerInference.min)} / ${dec2(s!.cpuMicrosPerInference.median)} / ${dec2(s!.cpuMicrosPerInference.max)}`,
        s!.cpuMicrosAtReference
          ? `${dec2(s!.cpuMicrosAtReference.min)} / ${dec2(s!.cpuMicrosAtReference.median)} / ${dec2(s!.cpuMicrosAtReference.max)}`
          : dash,
      ]),
    ),
    "",
    SPREAD_NOTE,
    "",
  ];
}

export function resourcesSection(measured: readonly RunResult[]): string[] {
  const withResources = measured.filter((r) => r.resources);
  if (withResources.length === 0) return [];
  return [
    "## Resources (raw)",
    "",
    table(
      ["product", "cpu_avg %", "cpu_p95 %", "mem_avg MB", "mem_max MB", "samples", "instrument"],
      withResources.map((r) => {
        const m = r.resources!;
        return [productLabel(r), dec1(m.cpuAvg), dec1(m.cpuP95), dec1(m.memAvgMb), dec1(m.memMaxMb), String(m.samples), `/proc Δ, ${m.instrument}`];
      }),
    ),
    "",
    RESOURCES_NOTE,
    "",
  ];
}

export function sweepSections(sweeps: readonly SweepRecord[]): string[] {
  const out: string[] = [];
  for (const sweep of sweeps) {
    // A sweep since issue 61 is the same search as the main command's, from a drain; an older one climbed from a fixed rate.
    const drained = sweep.method === "fast" || sweep.steps[0]?.purpose === "drain";
    const heading = sweep.method === "fast" ? "Knee search (drain, then paced runs)" : drained ? "Sweep (drain, then paced runs, confirmed)" : "Sweep";
    out.push(`## ${heading} — ${sweep.product}`, "");
    out.push(
      table(
        ["step", "purpose", "asked/s", "offered/s", "consumed/s", "regime", "lag drift", "cpu_avg %", "speed index", "foreign %", "steal %"],
        sweep.steps.map((st, i) => [
          String(i + 1), st.purpose, st.purpose === "drain" ? dash : int(st.rate), st.purpose === "drain" ? dash : int(st.offeredPerSec),
          int(st.consumedPerSec), stepRegime(st),
          st.lagDrift !== undefined ? signedPercent(st.lagDrift) : dash, st.cpuAvg !== undefined ? dec1(st.cpuAvg) : dash,
          st.speedIndex !== undefined ? int(st.speedIndex) : dash, st.foreignCpuAvg !== undefined ? dec1(st.foreignCpuAvg) : dash,
          st.stealAvg !== undefined ? dec1(st.stealAvg) : dash,
        ]),
      ),
      "",
      `Knee ${sweep.knee !== undefined ? `${int(sweep.knee)}/s` : "not found"}${sweep.confirmed ? " (confirmed)" : ""}${kneeBracket(sweep)}; ` +
        `${drained ? "drain ceiling" : "ceiling"} ` +
        `${sweep.ceiling !== undefined ? `${int(sweep.ceiling)}/s` : drained ? "not measured quietly" : "not reached"}. ` +
        `${sweep.stoppedBecause}`,
      "",
    );
  }
  return out;
}

export function sanitySection(measured: readonly RunResult[], tolerance: number): string[] {
  // A faults-only file has no measured rows: no table and no verdict (the faults section has its own).
  if (measured.length === 0) return [];
  const out: string[] = [];
  out.push("## Sanity — are we benching the same thing?", "");
  let allMatch = true;
  out.push(
    table(
      [
        "product",
        "selectivity (out/consumed)",
        "expected",
        "verified (fixtures)",
        "lost",
        "duplicated",
        "scores checked",
        "mis-scored",
        "largest error",
        "✓",
      ],
      measured.map((r) => {
        const d = r.delivery;
        const selectivityOk = Math.abs((r.selectivity ?? 0) - EXPECTED_SELECTIVITY) <= SELECTIVITY_TOLERANCE * EXPECTED_SELECTIVITY;
        const ok = r.status === "ok" && selectivityOk && (r.verification?.passed ?? false);
        allMatch &&= ok;
        return [
          productLabel(r), dec4(r.selectivity ?? 0), dec4(EXPECTED_SELECTIVITY), verifiedCell(r.verification), // older results: 256 generated only
          d ? int(d.lost) : dash, d ? int(d.duplicated) : dash, d ? int(d.scoresChecked) : dash, d ? int(d.misScored ?? 0) : dash,
          d ? sci(d.maxScoreError) : dash, ok ? "✓" : "✗",
        ];
      }),
    ),
    "",
    allMatch
      ? `Verdict: ✓ matches theory — every row's selectivity is within ${SELECTIVITY_TOLERANCE * 100}% of the expected value, nothing was lost, and ` +
        `every checked score equals the reference model's within ${tolerance}.`
      : `Verdict: ✗ at least one row does not match (see ✗ above): its figures do not price the same work. A checked score further than ${tolerance} ` +
        `from the reference model's, a missing or null score, a lost record or a backlog left undrained makes a run invalid.`,
    "",
  );
  return out;
}

export function notRunSection(notRun: readonly RunResult[]): string[] {
  if (notRun.length === 0) return [];
  return [
    notRun.some((r) => r.status === "failed") ? "## Not run, or failed, on this machine" : "## Not run on this machine",
    "",
    ...notRun.map((r) => `- **${r.product}** — ${r.status === "failed" ? "FAILED: " : ""}${(r.reason ?? "").replace(/\n/g, " ").slice(0, 600)}`),
    "",
  ];
}

export function footerSection(results: BenchResults, measured: readonly RunResult[]): string[] {
  const out: string[] = [];
  const h = results.host;
  const cpuId = h.cpuId ? ` (${h.cpuId}${h.simd ? `; ${h.simd}` : ""})` : "";
  out.push(`Host: ${h.cpu}${cpuId} · ${h.cores} cores / ${h.threads} threads · ${int(h.memoryMb)} MB · kernel ${h.kernel} · ${h.os}.`, "");
  out.push(
    `Broker: ${results.broker.name} ${results.broker.version} (single node, KRaft` +
      `${results.broker.startedByRunner ? ", started by the runner" : ", given with --bootstrap"}). Broker, gendata and the product under test share this ` +
      `host.`,
    "",
  );
  const costs = measured.filter((r) => r.harness);
  if (costs.length > 0) {
    const avg = (f: (r: RunResult) => number): string => dec1(costs.reduce((a, r) => a + f(r), 0) / costs.length);
    const foreign = costs.some((r) => r.conditions)
      ? `; foreign load ${avg((r) => r.conditions?.foreignCpuAvg ?? 0)}, steal ${avg((r) => r.conditions?.stealAvg ?? 0)}`
      : "";
    out.push(
      `Harness cost (average over the shown rows' windows, 100 = one core): sampler ${avg((r) => r.harness!.samplerCpuPercent)}, runner in all ` +
        `${avg((r) => r.harness!.runnerCpuPercent)}, gendata ${avg((r) => r.harness!.gendataCpuPercent)}, broker ` +
        `${avg((r) => r.harness!.brokerCpuPercent)}${foreign}.`,
      "",
    );
  }
  return out;
}

/** ", bracket 120,000–130,000/s, 132,100/s at the reference speed": where the knee lies and what it is at the reference speed. */
export function kneeBracket(sweep: SweepRecord): string {
  const b = sweep.bracket;
  const bracket = b === undefined
    ? ""
    : b.saturated !== undefined ? `, bracket ${int(b.keptUp)}–${int(b.saturated)}/s` : `, bracket ≥ ${int(b.keptUp)}/s (nothing above it saturated)`;
  const atRef = sweep.kneeAtReference !== undefined ? `, ${int(sweep.kneeAtReference)}/s at the reference speed` : "";
  return `${bracket}${atRef}`;
}

function stepRegime(st: NonNullable<BenchResults["sweeps"]>[number]["steps"][number]): string {
  if (st.interrupted) return `not measured: the bench was ${st.interrupted}`;
  if (st.failed) return `failed: ${st.failed}`;
  if (st.invalid) return `✗ invalid: ${st.invalid}`;
  const marks = [
    st.gendataShort && "gendata short", st.unsettled && "unsettled", st.noisy && `noisy: ${st.noisy}`,
    st.slower && `machine slower: ${st.slower}; ${st.keptUpAtSpeed ? "kept up judged at the usual speed" : (st.rerun ?? "run again")}`,
  ].filter(Boolean);
  return `${st.regime ?? dash}${marks.length > 0 ? ` (${marks.join("; ")})` : ""}`;
}

/** The speed index and quiet-machine bounds, for the page's header. */
export function machineLine(results: BenchResults): string {
  if (results.speedIndexReference === undefined) {
    return "Machine: these results predate the speed index and foreign-load accounting (schema 1): nothing on this page tells a busy or slow machine from a " +
      "slow product.";
  }
  if (!hasTimedRuns(results)) return speedSentence(results);
  return (
    `${speedSentence(results)} ` +
    `A run is noisy, and never a result, when something measurably disturbed it: processes outside the product and the harness averaged over ` +
    `${FOREIGN_CPU_LIMIT}% of a core in its window, or steal over ${STEAL_LIMIT}% (a speed reading alone never discards a run; a knee's repeat must agree in ` +
    `cost). ` +
    `Its window starts once records arrive at ≥ ${SETTLE_RULE.feedShare * 100}% of the asked rate and the backlog of unrepublished records has stayed ` +
    `under ${SETTLE_RULE.smallBacklogSec} s of offered records (a micro-batch row's: plus two trigger intervals, the most a record it keeps up with ` +
    `waits) for ${SETTLE_RULE.holdTicks} s with a flat trend (or once the product is plainly past ` +
    `capacity), never before the warmup, at the latest at the settle cap (then unsettled).`
  );
}

/**
 * The consumer settings the runs used, as recorded in the results; for a file whose runs did not
 * record them the line says that the current settings are shown.
 */
export function consumerSettingsLine(runs: readonly RunResult[], scenarios: readonly ScenarioRow[] = []): string {
  const recorded = [...new Set([...runs, ...scenarios].flatMap((r) => (r.kafka ? [consumerSettingsProse(r.kafka.consumer)] : [])))];
  const unrecorded = runs.length === 0 && scenarios.length > 0
    ? "the settings of the bench's code today: these fault scenarios predate recording theirs"
    : "today's settings: these results predate runs recording theirs";
  const prose = recorded.length > 0 ? recorded.join("; or ") : `${consumerSettingsProse(KAFKA_SETTINGS.consumer)} (${unrecorded})`;
  return `Consumer fetch: every librdkafka consumer runs with ${prose} (the settings one of the seed's engines hard-codes in its core); other clients' ` +
    `equivalents and deviations are listed under each row.`;
}

/** The throughput table's "µs @ ref" cell. */
function atReferenceCell(run: RunResult): string {
  const micros = microsAtReference(run);
  return micros !== undefined ? dec2(micros) : dash;
}

export function conditionsSection(measured: readonly RunResult[]): string[] {
  const rows = measured.filter((r) => r.conditions);
  if (rows.length === 0) return [];
  return [
    "## Run conditions",
    "",
    table(
      ["product", "speed index before → after", "foreign load avg / max %", "steal avg %", "settled after s", "quiet?"],
      rows.map((r) => {
        const c = r.conditions!;
        return [
          productLabel(r), `${int(c.speedIndexBefore)} → ${int(c.speedIndexAfter)}`, `${dec1(c.foreignCpuAvg)} / ${dec1(c.foreignCpuMax)}`, dec1(c.stealAvg),
          r.settleSec !== undefined ? `${dec1(r.settleSec)}${r.settled === false ? " (unsettled)" : ""}` : dash,
          c.noisy ? `⚠ noisy: ${noisyShort(r)}` : "✓",
        ];
      }),
    ),
    "",
    FOREIGN_LOAD_NOTE,
    "",
  ];
}

/** "315/315", and the declared spelling findings (named in the row's notes) when there are any: "315/315 (1 JSON finding, see notes)". */
function verifiedCell(v: RunResult["verification"]): string {
  const count = `${v?.checked ?? 0}/${v?.fixtures ?? GENERATED_FIXTURE_COUNT}`;
  const declared = v?.declared?.length ?? 0;
  return declared > 0 ? `${count} (${declared} JSON finding${declared > 1 ? "s" : ""}, see notes)` : count;
}

export function notesSection(results: BenchResults, rows: readonly RunResult[]): string[] {
  if (rows.length === 0) return [];
  return ["## Notes per product", "", ...rows.flatMap((r) => [`**${productLabel(r)}** — ${notesOf(results, r).join(" ")}`, ""])];
}

/**
 * The seconds the run's window measured: one tick a second, each holding its preceding second. A
 * window rule ends a window by what its figure says, so the setting's seconds are only the fixed
 * window's (runs kept without their ticks).
 */
export function windowSeconds(r: RunResult): number {
  const seconds = r.ticks.filter((t) => t.phase === "window").length;
  return seconds > 0 ? seconds : r.settings.windowSec;
}

function notesOf(results: BenchResults, r: RunResult): string[] {
  const parts = [...r.notes];
  const versions = Object.entries(r.versions).map(([k, v]) => `${k} ${v}`).join(", ");
  if (versions) parts.push(`Versions: ${versions}.`);
  for (const d of r.deviations) parts.push(`Deviation: ${d}`);
  if (r.consumedSource) parts.push(`consumed read from ${r.consumedSource}.`);
  if (r.remoteResources) parts.push(`CPU and memory beyond this machine's /proc: ${r.remoteResources}.`);
  const sweep = sweepOf(results, r.product);
  if (sweep) {
    parts.unshift(
      `SWEPT — knee ` +
        `${sweep.knee !== undefined ? `${int(sweep.knee)}/s${sweep.confirmed ? " (confirmed by a repeat)" : " (NOT confirmed)"}` : "not found"}, ceiling ` +
        `${sweep.ceiling !== undefined ? `${int(sweep.ceiling)}/s` : "not reached"}: ${sweep.stoppedBecause}`,
    );
  } else if (r.status === "ok") {
    parts.unshift(`NOT SWEPT — one run at ${int(r.settings.offeredRate)}/s offered; its regime says whether that is at or beyond the knee.`);
  }
  if (r.status === "invalid") parts.unshift(runMark(r) as string);
  if (r.status === "ok" || r.status === "invalid") {
    const start = r.warmUp
      ? `, its cold start worked off first (${r.warmUp.seconds} s at ${int(r.warmUp.rate)}/s, not measured), window once settled again`
      : `, window after ≥${r.settings.warmupSec} s`;
    parts.push(
      `Run at ${int(r.settings.offeredRate)}/s offered${start}` +
        `${r.settleSec !== undefined ? ` (settled at ${dec1(r.settleSec)} s)` : ""}, ${windowSeconds(r)} s window, parallelism ${r.settings.parallelism}.`,
    );
  } else {
    // The reason is printed once, in the not-run list below.
    parts.unshift(r.status === "failed" ? "FAILED — see below." : "NOT RUN — see below.");
  }
  for (const w of r.gendataWarnings) parts.push(`⚠ ${w}`);
  return parts;
}
