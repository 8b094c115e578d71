/**
 * The pid of the process on this machine that listens on a broker's port, so that a broker
 * given with --bootstrap (or the test suites' broker) is counted as harness, not as foreign
 * load. Read from /proc: the listening socket's inode in /proc/net/tcp{,6}, then the process
 * holding that inode among its file descriptors. Undefined for a remote or unreadable broker.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

const TCP_LISTEN = "0A";

/** Inodes of sockets listening on `port`, from the text of /proc/net/tcp or tcp6. */
export function listeningInodes(procNetTcp: string, port: number): string[] {
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  const inodes: string[] = [];
  for (const line of procNetTcp.split("\n").slice(1)) {
    const f = line.trim().split(/\s+/);
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    if (f.length > 9 && f[1]?.endsWith(`:${hexPort}`) && f[3] === TCP_LISTEN) inodes.push(f[9] as string);
  }
  return inodes;
}

export function localListenerPid(bootstrap: string): number | undefined {
  const [host, portText] = bootstrap.split(",")[0]!.trim().split(/:(?=\d+$)/);
  const port = Number(portText);
  if (!Number.isInteger(port) || !["127.0.0.1", "localhost", "::1", "[::1]", "0.0.0.0"].includes(host ?? "")) return undefined;
  const inodes = new Set<string>();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    try {
      for (const inode of listeningInodes(readFileSync(file, "utf8"), port)) inodes.add(`socket:[${inode}]`);
    } catch {
      // no IPv6 on this machine
    }
  }
  if (inodes.size === 0) return undefined;
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let fds: string[];
    try {
      fds = readdirSync(`/proc/${name}/fd`);
    } catch {
      continue;
    }
    for (const fd of fds) {
      try {
        if (inodes.has(readlinkSync(`/proc/${name}/fd/${fd}`))) return Number(name);
      } catch {
        // closed meanwhile
      }
    }
  }
  return undefined;
}
