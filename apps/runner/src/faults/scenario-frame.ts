/**
 * The frame every faults scenario runs in: fresh topics, the product started and held to the
 * gate, the scenario's own phases, and always the teardown. A product that fails the gate is not
 * faulted (the run is invalid); an error fails the run, with the product's log tail when it crashed.
 */
import { KAFKA_SETTINGS, type Prepared, type Product } from "@bench/core";
import type { ScenarioRow } from "../results/types.ts";
import type { RunSession } from "../run/session.ts";

/** The row a scenario records: the product, its delivery claim, its versions and the Kafka settings it is handed (every session's). */
export function scenarioRow(product: Product, prepared: Prepared): ScenarioRow {
  return { product: product.id, delivery: product.row.delivery, versions: prepared.versions, kafka: KAFKA_SETTINGS };
}

export type Topics = { topics?: { inputTopic: string; outputTopic: string } };

interface ScenarioResult {
  status: string;
  reason?: string;
}

export async function inScenarioFrame<R extends ScenarioResult>(
  session: RunSession,
  result: R,
  frame: { keepTopics?: boolean; notFaulted: string; crashed?: (crashed: string) => string },
  phases: () => Promise<void>,
): Promise<R & Topics> {
  const outcome: ScenarioResult = result;
  try {
    // Inside the frame: a topic the broker would not make fails this scenario, not the bench.
    await session.createTopics();
    await session.start();
    const verification = await session.verify();
    if (verification.passed) await phases();
    else {
      if (session.crashed) throw new Error(session.crashed);
      outcome.status = "invalid";
      outcome.reason = `did not score the fixtures right, so ${frame.notFaulted}`;
    }
  } catch (error) {
    outcome.status = "failed";
    outcome.reason = (error as Error).message;
    const crashed = session.crashed;
    if (crashed) outcome.reason = `${frame.crashed?.(crashed) ?? crashed}\n--- log tail ---\n${session.running?.logTail(25) ?? ""}`;
  } finally {
    await session.teardown(frame.keepTopics);
  }
  const { inputTopic, outputTopic } = session.plan;
  return { ...result, ...(frame.keepTopics ? { topics: { inputTopic, outputTopic } } : {}) };
}
