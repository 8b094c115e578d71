import { join } from "node:path";
import { emptyCounts, PROFILE_CATEGORIES } from "@bench/core";
import { readResults } from "../results/files.ts";
import type { BenchResults, ProfileResult } from "../results/types.ts";
import { breakdownSection, perturbedProfile, rowProfileOf } from "./breakdown.ts";
import { chartData } from "./html/chart-data.ts";
import { renderPage, rowsOf } from "./render.ts";

const results = (): BenchResults => readResults([join(import.meta.dirname, "__fixtures__", "results-schema2.json")]);

function profile(): ProfileResult {
  const shares = { ...emptyCounts(), fetch: 0.2, decode: 0.1, features: 0.05, model: 0.15, encode: 0.05, produce: 0.3, runtime: 0.1, other: 0.05 };
  const microsPerRecord = emptyCounts();
  for (const c of PROFILE_CATEGORIES) microsPerRecord[c] = shares[c] * 40;
  return {
    seconds: 10,
    consumedPerSec: 5000,
    cpuAvg: 20,
    shares,
    microsPerRecord,
    processes: [{ pid: 1, exe: "node", command: "node main.ts", profiler: "v8", cpuPercent: 20, samples: 900 }],
    overhead: { profilerCpuPercent: 4.5, cpuMicrosPerRecordWindow: 38, cpuMicrosPerRecordProfiled: 40 },
    files: { speedscope: "profiles/node-5000.speedscope.json", collapsed: "profiles/node-5000.collapsed.txt" },
  };
}

describe("breakdownSection", () => {
  it("is absent when no run was profiled, so earlier pages render as before", () => {
    const r = results();
    expect(breakdownSection(r, rowsOf(r).measured)).toEqual([]);
  });

  it("shows each category's share and µs per record, other included, the profiler's cost and the flame graph", () => {
    const r = results();
    const row = rowsOf(r).measured[0]!;
    row.profile = profile();
    const text = breakdownSection(r, rowsOf(r).measured).join("\n");
    expect(text).toContain("## CPU breakdown");
    expect(text).toContain("other (no rule)");
    const line = text.split("\n").find((l) => l.startsWith(`| ${row.product}`))!;
    expect(line).toContain("30.0% · 12.00"); // produce
    expect(line).toContain("5.0% · 2.00"); // other
    expect(line).toContain("40.00 (38.00)");
    expect(line).toContain("[speedscope](profiles/node-5000.speedscope.json)");
    expect(renderPage(r)).toContain("## CPU breakdown");
  });

  it("states why a profile is missing parts", () => {
    const r = results();
    const row = rowsOf(r).measured[0]!;
    row.profile = { ...profile(), error: "java 7: jcmd JFR.start: refused" };
    expect(breakdownSection(r, rowsOf(r).measured).join("\n")).toContain("jcmd JFR.start: refused");
  });

  it("marks a row whose profiled phase cost more than 25 % off its window, and shows none of its shares as the row's", () => {
    const r = results();
    const row = rowsOf(r).measured[0]!;
    row.profile = { ...profile(), overhead: { profilerCpuPercent: 106.7, cpuMicrosPerRecordWindow: 9.71, cpuMicrosPerRecordProfiled: 55.84 } };
    const text = breakdownSection(r, rowsOf(r).measured).join("\n");
    const line = text.split("\n").find((l) => l.startsWith(`| ${row.product}`))!;
    expect(line).toContain("55.84 (9.71) ⚠ perturbed");
    expect(line).not.toContain("30.0% · 12.00");
    expect(text).toContain("taken under a perturbing profiler");
    expect(text).toContain("+475 %");
    expect(rowProfileOf(r, row)).toBeUndefined();
    expect(chartData(r).breakdown.filter((b) => b.product === row.product)).toEqual([]);
  });

  it("holds a profile within 25 % of its window, either way, as the row's", () => {
    const within = { ...profile(), overhead: { profilerCpuPercent: 5, cpuMicrosPerRecordWindow: 10, cpuMicrosPerRecordProfiled: 12.4 } };
    const faster = { ...profile(), overhead: { profilerCpuPercent: 5, cpuMicrosPerRecordWindow: 10, cpuMicrosPerRecordProfiled: 7.4 } };
    expect(perturbedProfile(within)).toBe(false);
    expect(perturbedProfile(faster)).toBe(true);
  });
});
