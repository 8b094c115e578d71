/**
 * Where a running process's TCP sockets point, read from /proc: the integration test holds the
 * Pathway app to the broker on loopback (no licence server, no telemetry endpoint).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export interface TcpEntry {
  inode: string;
  /** "a.b.c.d" or a full IPv6 address in hex groups. */
  remote: string;
}

/** "0100007F" (little-endian IPv4 as /proc writes it) -> "127.0.0.1"; IPv6: 32 hex digits in 4-byte little-endian words. */
export function procAddress(hex: string): string {
  if (hex.length === 8) return [6, 4, 2, 0].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(".");
  const words = hex.match(/.{8}/g) ?? [];
  const bytes = words.flatMap((w) => [6, 4, 2, 0].map((i) => w.slice(i, i + 2)));
  const groups: string[] = [];
  for (let i = 0; i < bytes.length; i += 2) groups.push(`${bytes[i]}${bytes[i + 1]}`.toLowerCase());
  return groups.join(":");
}

/** The rows of /proc/net/tcp or tcp6: each socket's inode and remote address. */
export function parseProcNetTcp(text: string): TcpEntry[] {
  return text
    .split("\n")
    .slice(1)
    .map((line) => line.trim().split(/\s+/))
    .filter((cols) => cols.length > 9)
    .map((cols) => ({ remote: procAddress((cols[2] as string).split(":")[0] as string), inode: cols[9] as string }));
}

/** Loopback, or no peer at all (a listening socket's remote is all zeros). */
export function isLocal(address: string): boolean {
  return address.startsWith("127.") || address === "0.0.0.0" || /^(0000:){7}0000$/.test(address) || /^(0000:){7}0001$/.test(address) || address.startsWith(
    "0000:0000:0000:0000:0000:ffff:7f",
  );
}

/** Remote addresses of every TCP socket the process holds open. */
export function tcpPeers(pid: number): string[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const target = readlinkSync(`/proc/${pid}/fd/${fd}`);
      const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
      if (inode) inodes.add(inode);
    } catch {
      // closed meanwhile
    }
  }
  const entries = ["tcp", "tcp6"].flatMap((f) => parseProcNetTcp(readFileSync(`/proc/${pid}/net/${f}`, "utf8")));
  return entries.filter((e) => inodes.has(e.inode)).map((e) => e.remote);
}
