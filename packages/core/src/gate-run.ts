/**
 * The verification gate against a live product, the same for the bench (before any timing) and
 * the adapters' integration tests: produce the gate's records into the input topic, read the
 * output topic through a GateCheck until every fixture came out, a problem shows, the run is
 * aborted or the time is up.
 */
import { GateCheck, type GateResult } from "./gate-check.ts";
import type { GateRecord } from "./gate-records.ts";
import { produceMessages, readTopic, type KeyedValue } from "./kafka.ts";
import type { PoisonPill } from "./poison.ts";
import type { SpellingFindings } from "./spelling-findings.ts";

/** The message key every pill is produced with, so a reader tells pills from fixtures by key. */
export const PILL_KEY = "poison";

/**
 * The input topic's messages in order: the gate's records as their exact raw text with their
 * key (or none), never re-stringified; each pill right before the generated fixture of its
 * beforeSeq; pills placed past the generated fixtures go after them, before the spellings.
 */
export function gateMessages(fixtures: readonly GateRecord[], poison: readonly PoisonPill[] = []): KeyedValue[] {
  const generated = fixtures.filter((f) => f.name === "generated");
  const pill = (p: PoisonPill): KeyedValue => ({ key: PILL_KEY, value: p.value });
  return [
    ...generated.flatMap((f, i) => [...poison.filter((p) => p.beforeSeq === i).map(pill), { key: f.key, value: f.value }]),
    ...poison.filter((p) => p.beforeSeq >= generated.length).map(pill),
    ...fixtures.filter((f) => f.name !== "generated").map((f) => ({ key: f.key, value: f.value })),
  ];
}

/** The input offsets the pills land at (the input topic has one partition, starting at 0). */
export function pillOffsets(messages: readonly KeyedValue[]): number[] {
  return messages.flatMap((m, offset) => (m.key === PILL_KEY ? [offset] : []));
}

export interface GateOptions {
  bootstrap: string;
  inputTopic: string;
  outputTopic: string;
  fixtures: readonly GateRecord[];
  /** The model card's tolerance. */
  tolerance: number;
  /** A passthrough row republishes the record: its ids and timestamps are checked, no risk. */
  passthrough: boolean;
  timeoutMs: number;
  /** Why the gate must stop reading now (the product exited, the bench was interrupted), if it must. */
  aborted: () => string | undefined;
  /** The row's declared spelling findings (Product.spellingFindings): the check holds those cases to them. */
  findings?: SpellingFindings;
  /** Malformed records among the generated fixtures (the integration tests' pills); the bench's gate produces none. */
  poison?: readonly PoisonPill[];
}

export interface GateRun {
  result: GateResult;
  /** The last output read for each fixture's event id. */
  outputs: ReadonlyMap<string, Record<string, unknown>>;
  /** Records produced into the input topic: fixtures and pills. */
  produced: readonly KeyedValue[];
}

/**
 * Reads the output topic into the check until it is complete, has a problem or the deadline
 * passes; returns why it was aborted, if it was. `isGateOutput` leaves out outputs that are not
 * the gate's (a drain run's backlog comes out among them).
 */
export async function readIntoCheck(
  opts: Pick<GateOptions, "bootstrap" | "outputTopic" | "fixtures" | "timeoutMs" | "aborted">,
  check: GateCheck,
  isGateOutput: (value: Uint8Array) => boolean = () => true,
): Promise<string | undefined> {
  let outputsRead = 0;
  const deadline = Date.now() + opts.timeoutMs;
  while (!check.complete && check.problem === undefined && Date.now() < deadline) {
    const abort = opts.aborted();
    if (abort) return abort;
    await readTopic(
      opts.bootstrap,
      opts.outputTopic,
      (batch) => {
        for (const m of batch) {
          outputsRead++;
          if (isGateOutput(m.value)) check.add(m.offset, m.value);
        }
      },
      { fromOffset: outputsRead, stopAt: opts.fixtures.length - check.checked, idleMs: 3_000, timeoutMs: Math.max(1000, deadline - Date.now()) },
    );
  }
  return undefined;
}

export async function runGate(opts: GateOptions): Promise<GateRun> {
  const check = new GateCheck(opts.fixtures, opts.passthrough, opts.findings);
  const produced = gateMessages(opts.fixtures, opts.poison);
  await produceMessages(opts.bootstrap, opts.inputTopic, produced);
  const aborted = await readIntoCheck(opts, check);
  return { result: check.result(opts.tolerance, opts.timeoutMs, aborted ?? check.verdict(opts.tolerance, opts.timeoutMs)), outputs: check.outputs, produced };
}
