/**
 * A path the user typed, as an absolute path relative to where they ran the command: pnpm runs
 * the runner in apps/runner and says where it was started in INIT_CWD. Products are handed
 * folders under --results and resolve them from their own working directories.
 */
import { resolve } from "node:path";

export function userPath(path: string, env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.INIT_CWD ?? process.cwd(), path);
}
