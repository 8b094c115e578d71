import { benchAppEnv, type RunContext } from "@bench/core";

/** Where the run's files appear inside the root (bind mounts, see chroot.ts). */
export const IN_ROOT = { app: "/bench/app", models: "/bench/models", run: "/bench/run" } as const;

/** What the apps read (app/common.py), with paths as they are inside the root. */
export function appEnv(ctx: RunContext, apiPort: number): Record<string, string> {
  return {
    ...benchAppEnv(ctx),
    BENCH_MODELS_DIR: IN_ROOT.models,
    BENCH_TURBINE_STATE_DIR: `${IN_ROOT.run}/turbine-state`,
    BENCH_TURBINE_API_PORT: String(apiPort),
    // The standard (GIL) cp314 build of turbine-fast refuses to start without it.
    TURBINE_ALLOW_GIL: "1",
    PYTHONDONTWRITEBYTECODE: "1",
  };
}

/** The consumer group Turbine names itself: turbine-{app_id}-{topic}-{name}. */
export function turbineGroup(ctx: Pick<RunContext, "groupId" | "inputTopic">, subscription = "score"): string {
  return `turbine-${ctx.groupId}-${ctx.inputTopic}-${subscription}`;
}
