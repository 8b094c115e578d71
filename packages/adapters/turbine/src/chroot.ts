/**
 * Running a command inside the sid root without leaving anything behind: a private mount
 * namespace (unshare --mount) holds /proc, /dev, /sys and the bind mounts, so they vanish with
 * its last process. No PID namespace: the app stays in the host's, where the sampler and
 * ManagedProcess's process-group signals reach it. The network is the host's (127.0.0.1 is
 * the broker).
 */

export interface Bind {
  /** Host path. */
  host: string;
  /** Absolute path inside the root. */
  inRoot: string;
  readOnly?: boolean;
}

export interface Invocation {
  command: string;
  args: string[];
}

/** PATH inside the root: the host's (pyenv shims and all) means nothing there. */
export const ROOT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// Arguments travel as positional parameters, never spliced into the script: no quoting bugs.
const SCRIPT = [
  "set -e",
  'root=$1; shift',
  'mount -t proc proc "$root/proc"',
  'mount --rbind /dev "$root/dev"',
  'mount --rbind /sys "$root/sys"',
  'while [ "$1" != "--" ]; do',
  '  mkdir -p "$root$2"',
  '  mount --bind "$1" "$root$2"',
  '  if [ "$3" = ro ]; then mount -o remount,bind,ro "$root$2"; fi',
  "  shift 3",
  "done",
  "shift",
  `exec chroot "$root" /usr/bin/env PATH=${ROOT_PATH} "$@"`,
].join("\n");

/** The host command that runs `argv` (absolute paths inside the root) chrooted into `root`. */
export function rootInvocation(root: string, argv: string[], binds: Bind[] = []): Invocation {
  if (argv.length === 0) throw new Error("rootInvocation needs a command");
  for (const b of binds) {
    if (!b.inRoot.startsWith("/")) throw new Error(`bind target must be absolute inside the root: ${b.inRoot}`);
  }
  const bindArgs = binds.flatMap((b) => [b.host, b.inRoot, b.readOnly ? "ro" : "rw"]);
  return {
    command: "unshare",
    args: ["--mount", "--propagation", "private", "--fork", "--", "/bin/sh", "-c", SCRIPT, "turbine-root", root, ...bindArgs, "--", ...argv],
  };
}
