/** Node rows: V8's CPU profile (taken by v8-inspector.mjs from outside) as collapsed stacks. */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { execa } from "execa";
import type { CollapsedStack } from "@bench/core";
import type { ProfilerOutcome } from "./pyspy.ts";

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
export interface CpuProfile {
  nodes: CpuProfileNode[];
  samples: number[];
}

function frameName(node: CpuProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const name = functionName || "(anonymous)";
  if (!url) return name;
  const path = url.replace(/^file:\/\//, "");
  const at = path.lastIndexOf("node_modules/");
  return `${name} (${at >= 0 ? path.slice(at + "node_modules/".length) : path}:${lineNumber + 1})`;
}

/** Every sample's stack, root first; V8's "(idle)" samples (the thread waiting) are not CPU and are dropped. */
export function cpuProfileToStacks(profile: CpuProfile): CollapsedStack[] {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map<number, number>();
  for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
  const stacks: CollapsedStack[] = [];
  for (const [id, count] of counts) {
    const frames: string[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (node) frames.push(frameName(node));
    }
    frames.reverse();
    if (frames[0] === "(root)") frames.shift();
    if (frames.length === 0 || frames[frames.length - 1] === "(idle)") continue;
    stacks.push({ frames, count });
  }
  return stacks;
}

export async function recordV8(pid: number, seconds: number, outFile: string): Promise<ProfilerOutcome> {
  const helper = join(import.meta.dirname, "v8-inspector.mjs");
  const run = await execa(process.execPath, ["--experimental-websocket", "--no-warnings", helper, String(pid), String(seconds), outFile], {
    reject: false,
    all: true,
    timeout: (seconds + 30) * 1000,
  });
  if (run.exitCode !== 0) return { stacks: [], error: `V8 profiler: ${String(run.all ?? "").trim().split("\n").slice(-3).join(" | ")}` };
  return { stacks: cpuProfileToStacks(JSON.parse(await readFile(outFile, "utf8")) as CpuProfile) };
}
