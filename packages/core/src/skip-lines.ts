/**
 * The line an app prints for each record it skips (one it cannot score: a poison pill), one
 * format for every row: `skipped record at offset N: <reason> (skipped K)`, N the record's input
 * offset, K how many records the printing counter has skipped so far (the Python rows print it
 * through models/bench_kit.py). A logger may put its own prefix before it (a Java row's log4j).
 */

export interface SkipLine {
  offset: number;
  reason: string;
  /** The counter's running total, this record included. */
  count: number;
}

const SKIP_LINE = /skipped record at offset (\d+): (.+) \(skipped (\d+)\)$/;
/** What marks a line as a skip line at all: one that says it but fits no format is malformed. */
const MENTION = /skipped record/i;

/** The skip lines of a log, and the lines that speak of a skipped record in any other wording. */
export function readSkipLines(log: string): { skips: SkipLine[]; malformed: string[] } {
  const skips: SkipLine[] = [];
  const malformed: string[] = [];
  for (const line of log.split("\n")) {
    const text = line.trimEnd();
    const match = SKIP_LINE.exec(text);
    if (match) skips.push({ offset: Number(match[1]), reason: match[2] as string, count: Number(match[3]) });
    else if (MENTION.test(text)) malformed.push(text);
  }
  return { skips, malformed };
}

/**
 * Whether the lines' running totals are those of one or more counters, each counting 1, 2, 3 …
 * (a row with several workers prints one sequence per worker, interleaved): a total of k is
 * never printed more often than a total of k - 1. Returns what is wrong, if anything.
 */
export function skipCountsProblem(counts: readonly number[]): string | undefined {
  const times = new Map<number, number>();
  for (const count of counts) times.set(count, (times.get(count) ?? 0) + 1);
  for (const [count, n] of [...times].sort(([a], [b]) => a - b)) {
    if (count < 1) return `"(skipped ${count})" is printed: a counter counts from 1`;
    const before = count === 1 ? n : (times.get(count - 1) ?? 0);
    if (n > before) return `"(skipped ${count})" is printed ${n} times, "(skipped ${count - 1})" ${before}: the totals ${counts.join(", ")} are not counters ` +
      `counting from 1`;
  }
  return undefined;
}
