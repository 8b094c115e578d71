/** Flame graphs as speedscope's file format (one sampled profile per process), which speedscope and other viewers open as they are. */
import type { CollapsedStack } from "@bench/core";

export interface NamedStacks {
  name: string;
  stacks: CollapsedStack[];
}

export function speedscopeFile(name: string, profiles: readonly NamedStacks[]): object {
  const frames: Array<{ name: string }> = [];
  const index = new Map<string, number>();
  const frameIndex = (f: string): number => {
    let i = index.get(f);
    if (i === undefined) {
      i = frames.length;
      frames.push({ name: f });
      index.set(f, i);
    }
    return i;
  };
  return {
    $schema: "https://www.speedscope.app/file-format-schema.json",
    name,
    exporter: "stream-ml-bench",
    shared: { frames },
    profiles: profiles.map((p) => {
      const weights = p.stacks.map((s) => s.count);
      return {
        type: "sampled",
        name: p.name,
        unit: "none",
        startValue: 0,
        endValue: weights.reduce((a, b) => a + b, 0),
        samples: p.stacks.map((s) => s.frames.map(frameIndex)),
        weights,
      };
    }),
  };
}
