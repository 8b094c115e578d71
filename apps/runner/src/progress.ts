/** What the terminal shows while a run goes on: one live bar on a TTY, a line every 5 s elsewhere. */
import cliProgress from "cli-progress";
import type { Phase, Tick } from "./results/types.ts";

export class RunProgress {
  private bar: cliProgress.SingleBar | undefined;
  private lastLine = 0;

  start(product: string, rate: number, totalSeconds: number): void {
    this.stop();
    if (!process.stderr.isTTY) return;
    this.bar = new cliProgress.SingleBar(
      {
        format: `${product} @ ${rate}/s {phase} [{bar}] {left}s left | offered {offered}/s consumed {consumed}/s | cpu {cpu}% mem {mem} MB`,
        hideCursor: true,
        stream: process.stderr,
      },
      cliProgress.Presets.shades_classic,
    );
    this.bar.start(totalSeconds, 0, { phase: "verify", left: totalSeconds, offered: 0, consumed: 0, cpu: 0, mem: 0 });
  }

  update(product: string, phase: Phase, secondsLeft: number, tick: Tick, offered: number, consumed: number): void {
    const payload = {
      phase: phase.padEnd(6),
      left: Math.round(secondsLeft),
      offered: Math.round(offered),
      consumed: Math.round(consumed),
      cpu: tick.cpuPercent.toFixed(0),
      mem: tick.memMb.toFixed(0),
    };
    if (this.bar) {
      this.bar.update(Math.max(0, this.bar.getTotal() - secondsLeft), payload);
    } else if (tick.t - this.lastLine >= 5) {
      this.lastLine = tick.t;
      process.stderr.write(
        `${product} ${payload.phase} t=${tick.t.toFixed(0)}s left=${payload.left}s offered=${payload.offered}/s consumed=${payload.consumed}/s cpu=${payload.cpu}% mem=${payload.mem}MB\n`,
      );
    }
  }

  stop(): void {
    this.bar?.stop();
    this.bar = undefined;
    this.lastLine = 0;
  }
}
