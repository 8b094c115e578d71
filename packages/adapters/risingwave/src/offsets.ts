/**
 * consumed/s as an engine counter. RisingWave's Kafka source does not consume as a member of
 * a consumer group: it assigns partitions itself and keeps its offsets in the job's own source
 * state table, written at every checkpoint together with the sink's log store. That
 * checkpointed offset is what "consumed" means for this row (it only reports offsets to a
 * group named {group.id.prefix}-{fragment id}, best effort, for external tools).
 *
 * State table rows are (partition_id, offset_info jsonb); offset_info holds the serialised
 * split, whose start_offset is the last offset read (exclusive start of the next read; the
 * "earliest" start is low watermark - 1).
 */

/** The internal table holding the source executor's state for the sink job `sink`. */
export function pickSourceStateTable(names: readonly string[], sink: string): string | undefined {
  const ours = names.filter((name) => name.toLowerCase().startsWith(`__internal_${sink.toLowerCase()}_`));
  return ours.find((name) => /_source_\d+$/i.test(name)) ?? ours.find((name) => /source/i.test(name) && !/backfill/i.test(name));
}

function asObject(value: unknown): Record<string, unknown> | undefined {
  if (typeof value === "string") {
    try {
      return asObject(JSON.parse(value));
    } catch {
      return undefined;
    }
  }
  return value !== null && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
}

/** Records read from one split, from its offset_info; undefined when the row is not a Kafka split. */
export function consumedFromOffsetInfo(offsetInfo: unknown): number | undefined {
  const info = asObject(offsetInfo);
  if (!info) return undefined;
  const split = asObject(info.split_info) ?? info;
  const start = split.start_offset;
  if (start === null || start === undefined) return 0;
  const last = Number(start);
  if (!Number.isFinite(last)) return undefined;
  // Topics here start at offset 0, so the last offset read + 1 is how many records were read.
  return Math.max(0, last + 1);
}

export function consumedFromRows(rows: ReadonlyArray<{ offset_info: unknown }>): number {
  let total = 0;
  for (const row of rows) total += consumedFromOffsetInfo(row.offset_info) ?? 0;
  return total;
}
