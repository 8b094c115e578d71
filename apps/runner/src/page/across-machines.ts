/**
 * "Does a row carry to another machine?": each product's cost here against another results
 * file's (another machine's, given with `render --compare`), at the same offered rate, since a
 * product's cost per record moves with its rate (batching). Where both sides were read by
 * the current speed index version, the rows are compared at the reference speed, each normalised
 * by the runtimes its CPU goes to (`speed.ts` normalisationOf); otherwise the two machines'
 * common factor is the median ratio over the products, and each row's residual from it says
 * whether that row carries. A row that does not carry is named with its measured residual.
 */
import type { BenchResults, RunResult } from "../results/types.ts";
import { coefficientOfVariation, median } from "../metrics/stats.ts";
import { dec2, table } from "./format.ts";
import { countsAsResult } from "./rows.ts";
import { RUNTIME_LABELS } from "../yardstick/runtimes.ts";
import { runtimesRead, withoutRuntimes } from "../yardstick/supplied.ts";
import { currentReadings, microsAtReference, normalisationOf } from "./speed.ts";

/** A row carries when its cost after normalisation is within this share of the other machine's. */
export const CARRY_TOLERANCE = 0.1;

export interface OtherMachine {
  /** How the page names it, e.g. "second machine (its date)". */
  label: string;
  results: BenchResults;
}

export interface RowPair {
  product: string;
  rate: number;
  here: RowCost;
  there: RowCost;
}

export interface RowCost {
  micros: number;
  atReference?: number;
  runs: number;
  /** What normalised its runs at the reference speed (each distinct wording once). */
  normalisedBy: string[];
  /** Runtimes of its mix that V8's index read for want of their own reading. */
  readByV8: string[];
  /** Whether some run was normalised by the row's declared mix rather than its own profile. */
  declaredMix: boolean;
}

/** µs per inference over a product's counting runs at one rate (median), with the reference-speed figure when all have it. */
function costAt(runs: readonly RunResult[], product: string, rate: number): RowCost | undefined {
  const at = runs.filter((r) => r.product === product && r.settings.offeredRate === rate && countsAsResult(r));
  if (at.length === 0) return undefined;
  const reference = at.map(microsAtReference);
  const normalisations = at.map(normalisationOf);
  return {
    micros: median(at.map((r) => r.throughput!.cpuMicrosPerInference)),
    ...(reference.every((x) => x !== undefined) ? { atReference: median(reference as number[]) } : {}),
    runs: at.length,
    normalisedBy: [...new Set(normalisations.flatMap((n) => n?.by ?? []))],
    readByV8: [...new Set(normalisations.flatMap((n) => n?.byV8 ?? []))],
    declaredMix: normalisations.some((n) => n?.source === "declared"),
  };
}

/** Per product, the highest rate at which both machines have runs that count. */
export function pairRows(here: BenchResults, there: BenchResults): RowPair[] {
  const products = [...new Set(here.runs.map((r) => r.product))].filter((p) => there.runs.some((r) => r.product === p));
  const pairs: RowPair[] = [];
  for (const product of products) {
    const rates = [...new Set(here.runs.filter((r) => r.product === product).map((r) => r.settings.offeredRate))].sort((a, b) => b - a);
    for (const rate of rates) {
      const a = costAt(here.runs, product, rate);
      const b = costAt(there.runs, product, rate);
      if (a && b) {
        pairs.push({ product, rate, here: a, there: b });
        break;
      }
    }
  }
  return pairs;
}

const pct = (x: number): string => `${x >= 0 ? "+" : ""}${(x * 100).toFixed(0)}%`;

/**
 * Both sides with readings of the same runtimes only: a runtime one side never read is read by
 * V8's index on both, or a row would be normalised by two different yardsticks.
 */
function readAlike(here: BenchResults, other: OtherMachine): { here: BenchResults; there: BenchResults; note?: string } {
  const a = runtimesRead(here);
  const b = runtimesRead(other.results);
  const drop = new Set([...a, ...b].filter((r) => !(a.has(r) && b.has(r))));
  if (drop.size === 0) return { here, there: other.results };
  const names = [...drop].map((r) => `${RUNTIME_LABELS[r]} (${a.has(r) ? `the ${other.label}'s` : "these"} results have no reading of it)`);
  return {
    here: withoutRuntimes(here, drop),
    there: withoutRuntimes(other.results, drop),
    note: `Read by V8's index on both sides here, since only one side has their yardstick: ${names.join(", ")}.`,
  };
}

/** "here: A · there: B", or the one wording when both sides were normalised alike. */
function normalisedByCell(p: RowPair): string {
  const here = p.here.normalisedBy.join("; ") || "—";
  const there = p.there.normalisedBy.join("; ") || "—";
  return here === there ? here : `here: ${here} · there: ${there}`;
}

/** Each side's speed index spread (coefficient of variation over its readings of today's index version). */
export interface IndexSpreads {
  here: number;
  there: number;
}

/**
 * What the yardstick's own inputs say about a residual: a runtime V8's index read for want of a
 * reading, a mix declared rather than profiled, a speed index whose readings spread more than
 * half the tolerance (a run's normalisation is then uncertain by about as much). What is left is
 * the row's work scaling between the two CPUs unlike every runtime read here.
 */
export function whyNotCarrying(p: RowPair, spreads: IndexSpreads, label: string): string {
  const reasons: string[] = [];
  const byV8 = [...new Set([...p.here.readByV8, ...p.there.readByV8])];
  if (byV8.length > 0) reasons.push(`its ${byV8.join(" and ")} share was read by V8's index, not by its own yardstick`);
  const declared = [p.here.declaredMix ? "here" : "", p.there.declaredMix ? `on the ${label}` : ""].filter(Boolean);
  if (declared.length > 0) reasons.push(`its runtime mix is the row's declared one ${declared.join(" and ")}, not a profile of these runs`);
  const wide = ([["here", spreads.here], [`on the ${label}`, spreads.there]] as const).filter(([, cv]) => cv > CARRY_TOLERANCE / 2);
  if (wide.length > 0) reasons.push(
    `the speed index's readings spread ${wide.map(([side, cv]) => `${(cv * 100).toFixed(0)}% (coefficient of variation) ${side}`).join(" and ")}, too wide ` +
      `for a ±${CARRY_TOLERANCE * 100}% judgement`,
  );
  return reasons.length > 0 ? reasons.join("; ") : "not the yardstick's inputs: its work scales between these two CPUs unlike every runtime read here";
}

/** The sentence naming the rows that do not carry, each with its measured residual, the runs behind it and why. */
function notCarrying(pairs: readonly RowPair[], residual: (p: RowPair) => number, label: string, spreads: IndexSpreads): string[] {
  const off = pairs.filter((p) => Math.abs(residual(p)) > CARRY_TOLERANCE);
  if (off.length === 0) return [`Every row carries to the ${label} within ±${CARRY_TOLERANCE * 100}%.`, ""];
  const listed = off.map(
    (
      p,
    ) => `${p.product} ${pct(residual(p))} (${p.here.runs} run${p.here.runs === 1 ? "" : "s"} here, ${p.there.runs} there, at ${p.rate}/s; why: ` +
      `${whyNotCarrying(p, spreads, label)})`,
  );
  return [
    `Not carrying to the ${label}, measured: ${listed.join(", ")}. After normalisation their cost still differs between these two machines by that much: ` +
      `read them on one machine, or with these residuals, not as carried.`,
    "",
  ];
}

/** The page's section: one table per other machine, and which rows carry, with the residual of those that do not. */
export function acrossMachinesSection(here: BenchResults, others: readonly OtherMachine[]): string[] {
  if (others.length === 0) return [];
  const out = ["## Across machines", ""];
  for (const other of others) {
    const { here: hereAlike, there, note } = readAlike(here, other);
    const pairs = pairRows(hereAlike, there);
    if (pairs.length === 0) {
      out.push(`No product has runs that count at a common rate here and on the ${other.label}.`, "");
      continue;
    }
    const byReference = pairs.every((p) => p.here.atReference !== undefined && p.there.atReference !== undefined);
    const ratio = (p: RowPair): number => (byReference ? (p.there.atReference as number) / (p.here.atReference as number) : p.there.micros / p.here.micros);
    const factor = byReference ? 1 : median(pairs.map(ratio));
    const residual = (p: RowPair): number => ratio(p) / factor - 1;
    out.push(
      table(
        [
          "product",
          "rate/s",
          "µs here (runs)",
          `µs on the ${other.label} (runs)`,
          byReference ? "µs @ ref here / there" : "ratio there ÷ here",
          "residual",
          "carries?",
          ...(byReference ? ["normalised by (runtime mix)"] : []),
        ],
        pairs.map((p) => [
          p.product, String(p.rate), `${dec2(p.here.micros)} (${p.here.runs})`, `${dec2(p.there.micros)} (${p.there.runs})`,
          byReference ? `${dec2(p.here.atReference as number)} / ${dec2(p.there.atReference as number)}` : dec2(ratio(p)),
          pct(residual(p)), Math.abs(residual(p)) <= CARRY_TOLERANCE ? "✓" : "✗",
          ...(byReference ? [normalisedByCell(p)] : []),
        ]),
      ),
      "",
      byReference
        ? `Both sides were read by today's speed index: each row is taken to the reference speed by the runtimes its CPU goes to (V8's index, CPython's and ` +
          `the JVM's yardstick; native code by V8's), and the residual is the difference that is left; a row carries within ±${CARRY_TOLERANCE * 100}%.`
        : `The ${other.label}'s runs were read by the older speed index (version 1), which does not carry (its memory walk swung 2× with the kernel's huge ` +
          `pages), so the two machines' factor is taken from the products themselves: the median ratio, ${dec2(factor)}. A row carries when its own ratio is ` +
          `within ±${CARRY_TOLERANCE * 100}% of that factor.`,
      ...(byReference && note ? ["", note] : []),
      "",
      ...notCarrying(
        pairs,
        residual,
        other.label,
        { here: coefficientOfVariation(currentReadings(hereAlike)), there: coefficientOfVariation(currentReadings(there)) },
      ),
    );
  }
  return out;
}
