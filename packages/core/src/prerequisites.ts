/**
 * Helpers for a product's prerequisites (see `Prerequisite` in adapter.ts): how prepare() says
 * the unmet ones, and how rows that share a lookup run it once when the doctor asks them all.
 */
import type { Prerequisite, PrerequisiteMissing } from "./adapter.ts";

/** One unmet prerequisite as prepare()'s reason says it: "reason (fix: …)". */
export function missingReason(check: PrerequisiteMissing): string {
  return `${check.reason} (fix: ${check.fix})`;
}

/** The unmet ones, each as missingReason says it, for prepare()'s `{ ok: false, reason }`; undefined when all are met. */
export function unmetReason(checks: readonly Prerequisite[]): string | undefined {
  const unmet = checks.filter((c): c is PrerequisiteMissing => !c.ok);
  return unmet.length === 0 ? undefined : unmet.map(missingReason).join("; ");
}

/**
 * Calls made while one is running get that one's promise: the doctor asks every row at once,
 * and four Python rows must not import torch four times. A call after it settled looks again,
 * so a bench's prepare() never reads a stale answer.
 */
export function sharedWhileRunning<T>(lookup: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    running ??= lookup().finally(() => {
      running = undefined;
    });
    return running;
  };
}
