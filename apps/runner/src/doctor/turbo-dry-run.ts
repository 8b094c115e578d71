/**
 * Which environment variables turbo hands each task, as turbo itself resolves them (root
 * turbo.json plus a package's own turbo.json): `turbo run --dry=json`, nothing executed.
 */
import { execFileSync } from "node:child_process";
import { join } from "node:path";

interface DryRun {
  tasks: { taskId: string; environmentVariables: { specified: { env: string[] } } }[];
}

/** `turbo`: the binary to run (the repo's own); `root`: the workspace it plans in. Keys are "package#task". */
export function turboTaskEnv(turbo: string, root: string, tasks: readonly string[]): Map<string, string[]> {
  const out = execFileSync(turbo, ["run", ...tasks, "--dry=json"], {
    cwd: root,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, TURBO_TELEMETRY_DISABLED: "1", DO_NOT_TRACK: "1" },
  });
  const plan = JSON.parse(out) as DryRun;
  return new Map(plan.tasks.map((t) => [t.taskId, t.environmentVariables.specified.env]));
}

export const repoTurbo = (repoRoot: string): string => join(repoRoot, "node_modules", ".bin", "turbo");
