/**
 * Where a product's CPU goes: the categories of the page's breakdown, the per-product rules that
 * map profiler frames (and whole threads no profiler sees) to them, and the classifier. Rules
 * live in each adapter (`profile-rules.ts`) because only the adapter knows its framework's
 * module names; what no rule claims is "other", reported, never folded into another category.
 */

export const PROFILE_CATEGORIES = ["fetch", "decode", "features", "model", "encode", "produce", "runtime", "other"] as const;
export type ProfileCategory = (typeof PROFILE_CATEGORIES)[number];
export type RuleCategory = Exclude<ProfileCategory, "other">;

export const CATEGORY_LABELS: Record<ProfileCategory, string> = {
  fetch: "Kafka client fetch/decompress",
  decode: "record decode",
  features: "feature extraction",
  model: "model call",
  encode: "encode",
  produce: "produce",
  runtime: "framework/runtime overhead",
  other: "other (no rule)",
};

export interface FrameRule {
  category: RuleCategory;
  /** Tested against one frame as the profiler names it, e.g. "uuid4 (uuid.py:723)". */
  frame: RegExp;
  /**
   * Claims the frame only when no deeper frame names a Python or JS source line: the event
   * loop's own work, not everything it runs (every stack passes through the loop, and an
   * unclaimed handler frame must stay "other" rather than vanish into the loop).
   */
  innermost?: boolean;
  /**
   * Claims the stack wherever the frame sits, before the innermost-first search: for work whose
   * deeper frames another rule would claim (building the input tensor runs in libtorch).
   */
  anywhere?: boolean;
}

export interface ThreadRule {
  /** "other" for a thread no profiler samples and no one can say what it does. */
  category: ProfileCategory;
  /** Tested against the thread's name (/proc/<pid>/task/<tid>/comm), e.g. "rdk:broker1". */
  thread: RegExp;
}

export interface ProfileRules {
  frames: FrameRule[];
  /**
   * Threads whose CPU goes to one category whole: threads the product's profiler cannot see
   * (librdkafka's C threads under py-spy or V8, the JVM's GC and JIT threads under JFR).
   */
  threads?: ThreadRule[];
}

export interface CollapsedStack {
  /** Root first, leaf last. */
  frames: string[];
  count: number;
}

/** Brendan Gregg's collapsed format, one "root;...;leaf COUNT" per line (py-spy's `--format raw`). */
export function parseCollapsed(text: string): CollapsedStack[] {
  const stacks: CollapsedStack[] = [];
  for (const line of text.split("\n")) {
    const at = line.lastIndexOf(" ");
    if (at <= 0) continue;
    const count = Number(line.slice(at + 1));
    if (!Number.isFinite(count) || count <= 0) continue;
    stacks.push({ frames: line.slice(0, at).split(";"), count });
  }
  return stacks;
}

export function formatCollapsed(stacks: readonly CollapsedStack[]): string {
  return stacks.map((s) => `${s.frames.join(";")} ${s.count}`).join("\n") + (stacks.length > 0 ? "\n" : "");
}

/**
 * The innermost frame any rule claims decides the stack (rules in order within a frame): a
 * sample in uuid4 under publish is produce work because uuid4 is; a sample in libc's malloc
 * under json decoding is decode work because no rule claims malloc.
 */
export function classifyStack(frames: readonly string[], rules: readonly FrameRule[]): ProfileCategory {
  for (const rule of rules) if (rule.anywhere && frames.some((f) => rule.frame.test(f))) return rule.category;
  let sourceBelow = false;
  for (let i = frames.length - 1; i >= 0; i--) {
    const frame = frames[i] as string;
    for (const rule of rules) if ((!rule.innermost || !sourceBelow) && rule.frame.test(frame)) return rule.category;
    sourceBelow ||= SOURCE_FRAME.test(frame);
  }
  return "other";
}

/** A frame of interpreted code: "f (pkg/mod.py:12)", "f (/app/main.ts:3)". */
const SOURCE_FRAME = /\.(py|js|mjs|cjs|ts):\d+\)$/;

export type CategoryCounts = Record<ProfileCategory, number>;

export function emptyCounts(): CategoryCounts {
  return Object.fromEntries(PROFILE_CATEGORIES.map((c) => [c, 0])) as CategoryCounts;
}

export function classifyStacks(stacks: readonly CollapsedStack[], rules: readonly FrameRule[]): CategoryCounts {
  const counts = emptyCounts();
  for (const s of stacks) counts[classifyStack(s.frames, rules)] += s.count;
  return counts;
}

export function classifyThread(name: string, rules: readonly ThreadRule[] | undefined): ProfileCategory | undefined {
  return rules?.find((r) => r.thread.test(name))?.category;
}

/** Each category's fraction of the total; they sum to 1 (all zero when nothing was counted). */
export function sharesOf(counts: CategoryCounts): CategoryCounts {
  const total = PROFILE_CATEGORIES.reduce((a, c) => a + counts[c], 0);
  const shares = emptyCounts();
  if (total > 0) for (const c of PROFILE_CATEGORIES) shares[c] = counts[c] / total;
  return shares;
}

/** Rules every Python row shares: the kit's steps (models/bench_kit.py), CPython's own machinery and Debian's torch 1.13. */
export const PYTHON_COMMON_FRAMES: FrameRule[] = [
  // The kit's feature tensor is feature work all the way down, though its arithmetic runs in libtorch.
  { category: "features", frame: /^(RiskScorer\.features|metrics_of|RiskScorer\.risks\.<locals>\.<listcomp>) \(bench_kit\.py:/, anywhere: true },
  { category: "decode", frame: /^(RecordDecoder\.(decode|skip)|record_problem|is_finite_number) \(bench_kit\.py:/ },
  { category: "encode", frame: /^output_record \(bench_kit\.py:/ },
  { category: "runtime", frame: /^(ConsumedCounter\.\w+|write_atomically) \(bench_kit\.py:/ },
  // Building the input tensor from the features is feature work, though it runs in libtorch.
  { category: "features", frame: /torch::utils::tensor_ctor|torch::utils::.*tensor_new|\bfrom_numpy\b/, anywhere: true },
  { category: "model", frame: /\(libtorch|torch\/nn\/|\(torch\/|_call_impl|\bforward \(/ },
  { category: "runtime", frame: /^(gc_collect|_PyObject_GC|collect_main|collect_with_callback|gc_collect_main)\b/ },
  { category: "runtime", frame: /\(selectors\.py|epoll_wait|\(asyncio\/(base_events|events|selector_events)\.py/, innermost: true },
];

/** librdkafka's own C threads (confluent-kafka, @confluentinc/kafka-javascript): fetch, decompress and the producer's send. */
export const RDKAFKA_THREADS: ThreadRule[] = [{ category: "fetch", thread: /^rdk:/ }];
