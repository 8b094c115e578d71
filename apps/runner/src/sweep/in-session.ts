/**
 * A knee search in one product session (run/paced-session.ts), the shape both searches share:
 * one start and one gate serve every step, the product is stopped when the search ends, and the
 * one audit of the whole output reads on while the bench prepares the next product. An output
 * the audit finds wanting withdraws the knee: every step shared that output.
 */
import type { SweepRecord } from "../results/types.ts";
import type { PacedSession } from "../run/paced-session.ts";
import type { SweepResult } from "./step.ts";

/** The search's outcome, and its session's audit (why the output is wanting, or undefined). */
export interface SessionSearch<T> {
  outcome: T;
  audit: Promise<string | undefined>;
}

/** open, `search`, stop; a search that throws closes the session (product stopped, topics deleted) first. */
export async function searchInSession<T>(session: PacedSession, search: () => Promise<T>): Promise<SessionSearch<T>> {
  let outcome: T;
  try {
    await session.open();
    outcome = await search();
  } catch (error) {
    await session.close();
    throw error;
  }
  await session.stop();
  return { outcome, audit: session.audit() };
}

/**
 * The search's result once its session's audit has read: as it was, or, when the output was found
 * wanting, every step invalid and no knee, since a product that did not do the work gets none.
 */
export function audited(found: SweepResult, steps: SweepRecord["steps"], audit: string | undefined): SweepResult {
  if (audit === undefined) return found;
  for (const step of steps) if (step.failed === undefined) step.invalid = audit.split("\n")[0] as string;
  const { knee: _knee, ...rest } = found;
  return {
    ...rest,
    confirmed: false,
    stoppedBecause: `${found.stoppedBecause} The session's audit found: ${audit}; no knee is reported for a product with an invalid run.`,
  };
}
