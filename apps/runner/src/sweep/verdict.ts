/**
 * What one run says of the product at its rate: a pure function of the run's outcome and of the
 * runs of the same measurement before it. Each rule is one row of RULES, with its principle; the
 * first row that applies gives the verdict. The search (knee.ts) acts on it.
 */
import { MACHINE_SLOWER_SHARE, MAX_NOISY_REPEATS } from "./constants.ts";
import { fmt } from "./rates.ts";
import { slowerMachine, type Slower } from "./machine-speed.ts";
import type { SearchStep, StepOutcome } from "./step.ts";

export type Verdict =
  | { kind: "kept-up" }
  | { kind: "fell-behind" }
  /** gendata could not offer the rate beside the product: the rate bounds the search, it says nothing of the product. */
  | { kind: "unreachable"; why: string }
  /** Run it again; `slower`: first wait for the machine to come back. */
  | { kind: "again"; why: string; slower?: Slower }
  /** The search ends; `withdraw`: no knee is reported (the product did not do the work). */
  | { kind: "stop"; why: string; withdraw?: boolean };

export interface VerdictContext {
  /** The runs of this measurement before this one (same rate, same purpose), each set aside by an "again". */
  tries: readonly SearchStep[];
  /** The usual speed index to read this run against (machine-speed.ts' usualAcross); undefined: none yet. */
  usual: number | undefined;
}

export interface Rule {
  name: string;
  principle: string;
  verdict(o: StepOutcome, ctx: VerdictContext): Verdict | undefined;
}

/** Kept up with a settled backlog: the only run that shows the product sustains the rate. */
export const sustained = (o: Pick<StepOutcome, "regime" | "unsettled">): boolean => o.regime === "keep-up" && o.unsettled !== true;
/** Neither a settled keep-up nor saturated: the window read a backlog still being worked off, or never settled. */
const draining = (o: StepOutcome): boolean => !sustained(o) && o.regime !== "saturated";

export const RULES: readonly Rule[] = [
  {
    name: "interrupted",
    principle: "the bench's own interruption says nothing of the product: stop",
    verdict: (o) => (o.interrupted !== undefined ? { kind: "stop", why: `the bench was ${o.interrupted} during the run at ${fmt(o.rate)}/s` } : undefined),
  },
  {
    name: "failed",
    principle: "a product that crashed or hung is not run again: stop",
    verdict: (o) => (o.failed !== undefined ? { kind: "stop", why: `the run at ${fmt(o.rate)}/s failed: ${o.failed}` } : undefined),
  },
  {
    name: "invalid",
    principle: "a product that did not do the work (lost, mis-scored, undrained) gets no knee: stop and withdraw it",
    verdict: (o) => (o.invalid !== undefined ? { kind: "stop", why: `the run at ${fmt(o.rate)}/s was invalid: ${o.invalid}`, withdraw: true } : undefined),
  },
  {
    name: "unreachable",
    principle: "a rate gendata could not offer beside the product is gendata's limit, not the product's; a repeat would fall short too",
    verdict: (o) =>
      o.gendataShort
        ? { kind: "unreachable", why: `gendata could not reach ${fmt(o.rate)}/s beside the product (it delivered ${fmt(o.offeredPerSec)}/s)` }
        : undefined,
  },
  {
    name: "noisy",
    principle: `a run on a busy machine measures the machine: run again, at most ${MAX_NOISY_REPEATS} times, then stop with no figure from it`,
    verdict: (o, ctx) => {
      if (o.noisy === undefined) return undefined;
      const noisyBefore = ctx.tries.filter((t) => t.noisy !== undefined).length;
      if (noisyBefore < MAX_NOISY_REPEATS) return { kind: "again", why: `the machine was noisy (${o.noisy})` };
      return { kind: "stop", why: `the machine stayed noisy at ${fmt(o.rate)}/s over ${noisyBefore + 1} runs (${o.noisy}): no figure from it is kept` };
    },
  },
  {
    name: "kept up",
    principle: "only a settled keep-up shows the product sustains the rate",
    verdict: (o) => (sustained(o) ? { kind: "kept-up" } : undefined),
  },
  {
    name: "slower machine",
    principle:
      `a run that did not keep up while the machine ran over ${MACHINE_SLOWER_SHARE * 100} % slower than usual ` +
      "is run again once, once the machine is back",
    verdict: (o, ctx) => {
      if (ctx.tries.some((t) => t.slower !== undefined)) return undefined;
      const slower = slowerMachine(o, ctx.usual);
      return slower === undefined ? undefined : { kind: "again", why: `the machine ran slower (${slower.text})`, slower };
    },
  },
  {
    name: "draining",
    principle: "a window that read a backlog being worked off, or never settled, is run again once; still so, the rate is not sustained",
    verdict: (o, ctx) => {
      if (!draining(o)) return undefined;
      return ctx.tries.some(draining) ? { kind: "fell-behind" } : { kind: "again", why: "the run was draining or unsettled" };
    },
  },
  {
    name: "fell behind",
    principle: "a settled run whose consumption fell short of the offered rate: the product does not sustain it",
    verdict: () => ({ kind: "fell-behind" }),
  },
];

/** The first rule's verdict (the last row always applies). */
export function verdict(o: StepOutcome, ctx: VerdictContext): Verdict {
  for (const rule of RULES) {
    const v = rule.verdict(o, ctx);
    if (v !== undefined) return v;
  }
  throw new Error("unreachable: the last rule always applies");
}
