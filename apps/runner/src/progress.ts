/**
 * What the terminal shows while the bench goes on: which product (of how many), which step of
 * how many at most, the rate, the phase, and an estimate of the time left; one live line on a
 * terminal, a plain line every few seconds (and at every phase change) elsewhere, e.g. in CI.
 */
import cliProgress from "cli-progress";
import type { Phase, Tick } from "./results/types.ts";

/** What the bench will do, told by the command line before it starts. */
export interface ProgressPlan {
  /** Product ids in the order they run (empty: unknown). */
  products: string[];
  /** Runs a product gets at most: 1 without --sweep, the sweep's cap with it. */
  maxRunsPerProduct: number;
}

let plan: ProgressPlan = { products: [], maxRunsPerProduct: 1 };
export function setProgressPlan(next: ProgressPlan): void {
  plan = next;
}

/** Seconds a run spends outside its warmup and window (topics, start, verification, drain, audit) when none has been timed yet. */
export const DEFAULT_OVERHEAD_SEC = 30;

export interface ProgressState {
  product: string;
  /** 1-based position of the product in the plan (0: not in it). */
  productIndex: number;
  products: number;
  /** 1-based run of this product. */
  step: number;
  maxSteps: number;
  rate: number;
  phase: Phase | "start";
  /** Seconds left of this run's warmup and window. */
  runLeftSec: number;
  /** Wall seconds of a whole run so far (average), or the estimate before one has ended. */
  runSec: number;
  offered: number;
  consumed: number;
  cpu: number;
  memMb: number;
}

const int = (n: number): string => Math.round(n).toLocaleString("en-US");
function duration(sec: number): string {
  const s = Math.max(0, Math.round(sec));
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
    : s >= 60 ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s` : `${s}s`;
}

/** Upper bound of the time left: this run, the rest of this product's runs at most, the products after it at most. */
export function secondsLeftAtMost(s: ProgressState): number {
  const laterProducts = s.products > 0 && s.productIndex > 0 ? s.products - s.productIndex : 0;
  return s.runLeftSec + (s.maxSteps - s.step) * s.runSec + laterProducts * s.maxSteps * s.runSec;
}

export function progressLine(s: ProgressState): string {
  const which = s.products > 0 && s.productIndex > 0 ? `${s.product} (${s.productIndex}/${s.products})` : s.product;
  const step = s.maxSteps > 1 ? ` step ${s.step} of ≤${s.maxSteps}` : "";
  const figures = s.phase === "start"
    ? ""
    : ` | offered ${int(s.offered)}/s consumed ${int(s.consumed)}/s cpu ${s.cpu.toFixed(0)}% mem ${s.memMb.toFixed(0)} MB`;
  const rest = secondsLeftAtMost(s) - s.runLeftSec;
  const left = rest > 0 ? `, ≤${duration(secondsLeftAtMost(s))} in all` : "";
  // A drain run offers nothing while it is timed: its backlog was filled before the product started.
  const at = s.rate > 0 ? ` @ ${int(s.rate)}/s` : " drain of a backlog,";
  return `${which}${step}${at} ${s.phase} | ${duration(s.runLeftSec)} left of this run${left}${figures}`;
}

export class RunProgress {
  private bar: cliProgress.SingleBar | undefined;
  private lastLine = -Infinity;
  private lastPhase: string | undefined;
  private state: ProgressState | undefined;
  private runStartedAt: number | undefined;
  private readonly runDurations: number[] = [];
  private measuredSec = 0;

  constructor(
    private readonly live = Boolean(process.stderr.isTTY) && !process.env.CI,
    private readonly write: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
    private readonly now: () => number = () => performance.now() / 1000,
  ) {}

  start(product: string, rate: number, measuredSeconds: number): void {
    this.stopBar();
    const previous = this.state;
    const step = previous?.product === product ? previous.step + 1 : 1;
    this.measuredSec = measuredSeconds;
    this.runStartedAt = this.now();
    const index = plan.products.indexOf(product) + 1;
    this.state = {
      product,
      productIndex: index,
      products: plan.products.length,
      step,
      maxSteps: Math.max(step, plan.maxRunsPerProduct),
      rate,
      phase: "start",
      runLeftSec: measuredSeconds,
      runSec: this.runSec(),
      offered: 0,
      consumed: 0,
      cpu: 0,
      memMb: 0,
    };
    this.lastPhase = undefined;
    if (this.live) {
      this.bar = new cliProgress.SingleBar(
        { format: "[{bar}] {line}", hideCursor: true, stream: process.stderr, barsize: 20 },
        cliProgress.Presets.shades_classic,
      );
      this.bar.start(measuredSeconds, 0, { line: progressLine(this.state) });
    } else {
      this.emit(0, true);
    }
  }

  update(product: string, phase: Phase, secondsLeft: number, tick: Tick, offered: number, consumed: number): void {
    if (!this.state || this.state.product !== product) return;
    Object.assign(this.state, { phase, runLeftSec: secondsLeft, offered, consumed, cpu: tick.cpuPercent, memMb: tick.memMb, runSec: this.runSec() });
    if (this.bar) this.bar.update(Math.max(0, this.measuredSec - secondsLeft), { line: progressLine(this.state) });
    else this.emit(tick.t, phase !== this.lastPhase);
    this.lastPhase = phase;
  }

  stop(): void {
    if (this.runStartedAt !== undefined) this.runDurations.push(this.now() - this.runStartedAt);
    this.runStartedAt = undefined;
    this.stopBar();
  }

  private stopBar(): void {
    this.bar?.stop();
    this.bar = undefined;
  }

  /** A whole run's wall time: the average of the runs timed so far, else warmup + window + a fixed overhead. */
  private runSec(): number {
    if (this.runDurations.length === 0) return this.measuredSec + DEFAULT_OVERHEAD_SEC;
    return this.runDurations.reduce((a, b) => a + b, 0) / this.runDurations.length;
  }

  private emit(t: number, force: boolean): void {
    if (!this.state || (!force && t - this.lastLine < 5)) return;
    this.lastLine = t;
    this.write(progressLine(this.state));
  }
}
