/**
 * A served row's cost is the row's process trees and the bench's model server's together: each
 * tick's sample of the server's trees is added to the row's, and its own share is kept beside the
 * sum so the results can say how much of the row's cost was the server's.
 */
import type { ResourceSample } from "@bench/core";

export interface ServedSample {
  /** The row and the server together (the server alone while the row has no sample yet, none when neither has). */
  sample: ResourceSample | undefined;
  /** The server's share; absent when no server is sampled (embedded, or a user's server). */
  server?: { cpuPercent: number; memMb: number };
}

/** `server` undefined: nothing is sampled beside the row. A server down this tick (killed, restarting) adds 0. */
export function withServer(row: ResourceSample | undefined, server: ResourceSample | undefined): ServedSample {
  if (!server) return { sample: row };
  const share = { cpuPercent: server.cpuPercent, memMb: server.memMb };
  if (!row) return { sample: undefined, server: share };
  return {
    sample: {
      ...row,
      cpuPercent: row.cpuPercent + server.cpuPercent,
      memMb: row.memMb + server.memMb,
      processes: row.processes + server.processes,
      instrument: row.instrument === server.instrument ? row.instrument : "mixed",
    },
    server: share,
  };
}
