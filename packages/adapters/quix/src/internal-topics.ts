/**
 * quixstreams creates topics of its own only for stateful operations (changelog topics) and
 * group_by (repartition topics), named <changelog|repartition>__<group>--...; this app has
 * neither, and the runner checks that after each run.
 */
export function quixInternalTopics(topics: readonly string[], groupId: string): string[] {
  return topics.filter((t) => t.startsWith(`changelog__${groupId}--`) || t.startsWith(`repartition__${groupId}--`));
}
