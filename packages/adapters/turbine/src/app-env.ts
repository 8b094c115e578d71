import { benchAppEnv, type RunContext } from "@bench/core";

/** What the apps read (app/common.py). */
export function appEnv(ctx: RunContext, apiPort: number): Record<string, string> {
  return {
    ...benchAppEnv(ctx),
    BENCH_TURBINE_STATE_DIR: `${ctx.runDir}/turbine-state`,
    BENCH_TURBINE_API_PORT: String(apiPort),
    PYTHONDONTWRITEBYTECODE: "1",
  };
}

/** The consumer group Turbine names itself: turbine-{app_id}-{topic}-{name}. */
export function turbineGroup(ctx: Pick<RunContext, "groupId" | "inputTopic">, subscription = "score"): string {
  return `turbine-${ctx.groupId}-${ctx.inputTopic}-${subscription}`;
}
