/**
 * Starting the processes a bench owns (products, gendata, the broker) so that none outlives
 * the runner: each gets its own process group, and every group still alive is killed when
 * the runner exits, however it exits.
 */
import { createWriteStream, type WriteStream } from "node:fs";
import { execa, type ResultPromise } from "execa";
import type { ProductExit } from "./adapter.ts";

const liveGroups = new Set<number>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // already gone
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const pid of liveGroups) killGroup(pid, "SIGKILL");
  });
}

/**
 * Lines of a process's output kept for logTail(): enough that a test reads every skip line of a
 * poison-pill run from the tail, however much a JVM logs around them.
 */
export const LOG_TAIL_LINES = 2000;

export interface ManagedProcessOptions {
  command: string;
  args: string[];
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** stdout and stderr are appended here. */
  logFile: string;
  /** Lines kept in memory for logTail(); defaults to LOG_TAIL_LINES. */
  tailLines?: number;
  /** Called with each stdout line (e.g. progress reports). */
  onStdoutLine?: (line: string) => void;
}

export class ManagedProcess {
  readonly pid: number;
  readonly exited: Promise<ProductExit>;
  private readonly child: ResultPromise;
  private readonly tail: string[] = [];
  /** waitForLine()'s listeners, handed each complete line of stdout and stderr. */
  private readonly lineListeners = new Set<(line: string) => void>();
  private readonly log: WriteStream;
  private exitInfo: ProductExit | undefined;

  constructor(private readonly options: ManagedProcessOptions) {
    installExitHook();
    this.log = createWriteStream(options.logFile, { flags: "a" });
    this.child = execa(options.command, options.args, {
      cwd: options.cwd,
      env: options.env,
      extendEnv: true,
      detached: true,
      reject: false,
      buffer: false,
      stdin: "ignore",
      cleanup: true,
    });
    if (this.child.pid === undefined) throw new Error(`could not start ${options.command}`);
    this.pid = this.child.pid;
    liveGroups.add(this.pid);
    this.pipeLines(this.child.stdout, options.onStdoutLine);
    this.pipeLines(this.child.stderr);
    this.exited = this.child.then(
      (result) => {
        liveGroups.delete(this.pid);
        this.exitInfo = { code: result.exitCode ?? null, signal: result.signal ?? null };
        return this.exitInfo;
      },
      () => {
        liveGroups.delete(this.pid);
        this.exitInfo = { code: null, signal: null };
        return this.exitInfo;
      },
    );
  }

  get hasExited(): boolean {
    return this.exitInfo !== undefined;
  }

  private pipeLines(stream: NodeJS.ReadableStream | null, onLine?: (line: string) => void): void {
    if (!stream) return;
    let partial = "";
    stream.setEncoding("utf8");
    stream.on("data", (chunk: string) => {
      this.log.write(chunk);
      const lines = (partial + chunk).split("\n");
      partial = lines.pop() ?? "";
      for (const line of lines) {
        this.tail.push(line);
        if (this.tail.length > (this.options.tailLines ?? LOG_TAIL_LINES)) this.tail.shift();
        onLine?.(line);
        for (const listener of this.lineListeners) listener(line);
      }
    });
  }

  logTail(lines = 30): string {
    return this.tail.slice(-lines).join("\n");
  }

  /**
   * Resolves with the first complete stdout/stderr line matching `pattern`, or rejects on exit or
   * timeout. Complete lines only: an unbuffered Python print writes its text and its newline
   * separately, and a match on the first half would resolve before logTail() holds the line.
   */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<string> {
    const seen = this.tail.find((l) => pattern.test(l));
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => finish(new Error(`no line matching ${pattern} within ${timeoutMs / 1000}s`)), timeoutMs);
      const onLine = (line: string): void => {
        if (pattern.test(line)) finish(undefined, line);
      };
      const finish = (error?: Error, line?: string): void => {
        clearTimeout(timer);
        this.lineListeners.delete(onLine);
        if (error) reject(error);
        else resolve(line as string);
      };
      this.lineListeners.add(onLine);
      void this.exited.then((e) => finish(new Error(`exited (code ${e.code}, signal ${e.signal}) before printing ${pattern}`)));
    });
  }

  /** SIGTERM to the whole group, SIGKILL after graceMs; resolves once the main process is gone. */
  async stop(graceMs = 10_000): Promise<ProductExit> {
    if (!this.hasExited) {
      killGroup(this.pid, "SIGTERM");
      const timer = setTimeout(() => killGroup(this.pid, "SIGKILL"), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    // Grandchildren that ignored SIGTERM or escaped the wait still share the group.
    killGroup(this.pid, "SIGKILL");
    await new Promise<void>((r) => this.log.end(r));
    return this.exitInfo as ProductExit;
  }
}
