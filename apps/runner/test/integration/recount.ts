/** The audit a faults test checks the run's own count against: both topics read whole, here. */
import { readTopic, seqOfEventId, type KafkaAdmin } from "@bench/core";

/** Good ids in the input topic that never came out, by reading both topics whole; pills are inputs with no good id. */
export async function recount(
  bootstrap: string,
  topics: { inputTopic: string; outputTopic: string },
  admin: KafkaAdmin,
): Promise<{ lost: number; pills: number }> {
  const good = new Set<string>();
  let pills = 0;
  await readTopic(bootstrap, topics.inputTopic, (batch) => {
    for (const m of batch) {
      try {
        const id = (JSON.parse(m.value.toString("utf8")) as { event_id?: unknown }).event_id;
        // Good ids are e<seq> (a spelling fixture's with a label after a slash); a pill carries p<n> or no id at all.
        if (typeof id === "string" && seqOfEventId(id) !== undefined) good.add(id);
        else pills++;
      } catch {
        pills++;
      }
    }
  }, { stopAt: await admin.endOffset(topics.inputTopic), idleMs: 10_000 });
  await readTopic(bootstrap, topics.outputTopic, (batch) => {
    for (const m of batch) good.delete((JSON.parse(m.value.toString("utf8")) as { event_id: string }).event_id);
  }, { stopAt: await admin.endOffset(topics.outputTopic), idleMs: 10_000 });
  return { lost: good.size, pills };
}
