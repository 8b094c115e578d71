/**
 * A product's work outside its process trees (executors on a cluster), as its engine reports it
 * (RunningProduct.remoteResources): cumulative CPU seconds become a per-tick CPU percent (100 =
 * one core) to add to the /proc sample, and the reported resident memory is added to its memory.
 */
import type { RemoteResources, ResourceSample } from "@bench/core";

export interface RemoteReading {
  /** CPU over the tick, 100 = one core; 0 on the first reading of a source (its baseline). */
  cpuPercent: number;
  memMb?: number;
}

export class RemoteMeter {
  private previous: { source: RemoteResources; cpuSeconds: number; at: number } | undefined;

  /** `source` is asked each tick: a product restarted mid-run (faults) brings a new one. */
  constructor(private readonly source: () => RemoteResources | undefined) {}

  async read(now: number = performance.now()): Promise<RemoteReading | undefined> {
    const source = this.source();
    if (!source) return undefined;
    let reading: { cpuSeconds: number; rssBytes?: number };
    try {
      reading = await source.read();
    } catch {
      return undefined;
    }
    const previous = this.previous;
    this.previous = { source, cpuSeconds: reading.cpuSeconds, at: now };
    const seconds = previous ? (now - previous.at) / 1000 : 0;
    // A new source, or a counter that went back (executors replaced), is a new baseline.
    const delta = previous && previous.source === source ? reading.cpuSeconds - previous.cpuSeconds : 0;
    const cpuPercent = seconds > 0 && delta > 0 ? (delta / seconds) * 100 : 0;
    return reading.rssBytes === undefined ? { cpuPercent } : { cpuPercent, memMb: reading.rssBytes / (1024 * 1024) };
  }
}

/** The /proc sample with the remote reading added (memory from the engine is RSS). */
export function withRemote(sample: ResourceSample | undefined, remote: RemoteReading | undefined): ResourceSample | undefined {
  if (!remote || !sample) return sample;
  return {
    ...sample,
    cpuPercent: sample.cpuPercent + remote.cpuPercent,
    memMb: sample.memMb + (remote.memMb ?? 0),
    instrument: remote.memMb === undefined || sample.instrument === "rss" ? sample.instrument : "mixed",
  };
}
