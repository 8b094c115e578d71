/** gendata run as a child process, with its once-a-second reports parsed as they come. */
import { join } from "node:path";
import { ManagedProcess } from "@bench/core";

export interface GendataReport {
  t: number;
  sent: number;
  delivered: number;
  failed: number;
  behind: number;
  cpuSeconds: number;
  final?: boolean;
  lastError?: string;
  /** librdkafka's error events, recovered from by itself (the broker away): not records that failed. */
  transientErrors?: number;
  /** Why gendata gave up (its final report): a fatal producer error, or no acknowledgement for its limit. */
  gaveUp?: string;
  /** Malformed records sent (a faults run's pills). */
  poisonSent?: number;
}

export interface GendataOptions {
  bootstrap: string;
  topic: string;
  rate: number;
  seed: number;
  startSeq: number;
  logFile: string;
  /** A faults run's pills: `rounds` of each kind, spread over `span` records from seq `from`. */
  poison?: { rounds: number; from: number; span: number };
  /** Stop after this many records (it then exits by itself, after its final report). */
  count?: number;
}

export class GendataProcess {
  private readonly process: ManagedProcess;
  readonly reports: GendataReport[] = [];

  constructor(opts: GendataOptions) {
    this.process = new ManagedProcess({
      command: process.execPath,
      args: [
        "--import",
        "tsx",
        join(import.meta.dirname, "..", "gendata", "main.ts"),
        ...["--bootstrap", opts.bootstrap, "--topic", opts.topic, "--rate", String(opts.rate)],
        ...["--seed", String(opts.seed), "--start-seq", String(opts.startSeq)],
        ...(opts.count !== undefined ? ["--count", String(opts.count)] : []),
        ...(opts.poison
          ? ["--poison-rounds", String(opts.poison.rounds), "--poison-from", String(opts.poison.from), "--poison-span", String(opts.poison.span)]
          : []),
      ],
      cwd: join(import.meta.dirname, ".."),
      logFile: opts.logFile,
      onStdoutLine: (line) => {
        if (line.startsWith("{")) this.reports.push(JSON.parse(line) as GendataReport);
      },
    });
  }

  get pid(): number {
    return this.process.pid;
  }

  get exited(): Promise<unknown> {
    return this.process.exited;
  }

  latest(): GendataReport | undefined {
    return this.reports[this.reports.length - 1];
  }

  /** A counted gendata's final report, once it has exited by itself (every record acknowledged). */
  async finished(): Promise<GendataReport | undefined> {
    await this.process.exited;
    return this.reports.find((r) => r.final);
  }

  /** SIGTERM, then wait for its final report (every sent record acknowledged). */
  async stop(): Promise<GendataReport | undefined> {
    await this.process.stop(60_000);
    return this.reports.find((r) => r.final) ?? this.latest();
  }

  /** Why gendata gave up, once it has: the run it fed fails with this, not the product. */
  gaveUp(): string | undefined {
    const why = this.reports.find((r) => r.gaveUp !== undefined)?.gaveUp;
    return why === undefined ? undefined : `gendata could not go on: ${why}`;
  }

  logTail(): string {
    return this.process.logTail(20);
  }
}
