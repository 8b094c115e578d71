import type { ServerKillResult } from "../results/types.ts";
import { renderServerKills } from "./server-kills.ts";

const kill = (over: Partial<ServerKillResult>): ServerKillResult => ({
  product: "confluent-kafka",
  status: "ok",
  startedAt: "2026-12-01T00:00:00Z",
  settings: { offeredRate: 1000, warmupSec: 6, windowSec: 20, parallelism: 1, seed: 42, downSec: 5, recoveryLimitSec: 120 },
  delivery: "at-least-once (flush, then commit)",
  versions: {},
  server: { killedAtSec: 16, downSec: 7.3 },
  stalledSec: 8.1,
  recoverySec: 10.4,
  undrained: 0,
  tally: { produced: 30000, distinct: 30000, lost: 0, duplicated: 2000, poisonOut: 0, unreadable: 0, lostRanges: [] },
  ticks: [],
  ...over,
});

describe("the Model server kills section", () => {
  it("is absent without a server-kill run", () => {
    expect(renderServerKills(undefined)).toEqual([]);
    expect(renderServerKills([])).toEqual([]);
  });

  it("gives per row the server's downtime, how long the row stalled, its recovery, lost and duplicates", () => {
    const page = renderServerKills([
      kill({}),
      kill({
        product: "node", tally: { produced: 30000, distinct: 29000, lost: 1000, duplicated: 0, poisonOut: 0, unreadable: 0, lostRanges: [[5000, 5999]] },
      }),
      kill({ product: "rust", status: "failed", reason: "exited with code 1\n--- log tail ---", stalledSec: undefined, recoverySec: undefined,
        tally: undefined }),
    ]).join("\n");
    expect(page).toContain("## Model server kills");
    expect(page).toContain("kept down 5 s and started again on the same ports");
    expect(page).toContain("| confluent-kafka | at-least-once (flush, then commit) | 1,000 | 7.3 s | 8.1 s | 10.4 s | 0 | 2,000 | ✓ |");
    expect(page).toContain("| node | at-least-once (flush, then commit) | 1,000 | 7.3 s | 8.1 s | 10.4 s | **1,000** (e5000–e5999) | 0 | ✓ |");
    expect(page).toContain("| rust | at-least-once (flush, then commit) | 1,000 | 7.3 s | – | – | – | – | failed: exited with code 1 |");
  });

  it("says a user's server was not killed", () => {
    const page = renderServerKills([kill({ status: "not-run", reason: "not run here: the model server was given with --model-server", server: undefined,
      stalledSec: undefined, recoverySec: undefined, tally: undefined })]).join("\n");
    expect(page).toContain("| – | – | – | – | – | not-run: not run here: the model server was given with --model-server |");
  });
});
