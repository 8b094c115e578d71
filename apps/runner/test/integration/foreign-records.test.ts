/**
 * Foreign records in a row's input: while a measured run of the node row is under way, records
 * the bench did not write go into its input topic, some malformed, some well-formed JSON with ids
 * no generator made. The run reports them as foreign (how many, how many malformed, at which
 * offsets); lost counts only the bench's own records (none), and the drain does not read the
 * records the row rightly skipped as a backlog it left undone. The same in a knee search's session
 * (two paced steps, one audit over both): its audit tells the bench's records from the foreign ones.
 */
import { FIXTURE_COUNT, FIXTURE_SEED, KafkaAdmin, modelsDir, produceMessages, repoRoot, cacheRoot, type Product } from "@bench/core";
import { requireBootstrap } from "@bench/core/testing";
import { testBenchContext } from "./bench-context.ts";
import { discoverProducts } from "../../src/run/discover.ts";
import { measureRun, type BenchContext, type RunSettings } from "../../src/run/measure.ts";
import { PacedSession } from "../../src/run/paced-session.ts";

const bootstrap = requireBootstrap();

const MALFORMED = ["not json at all", "{\"event_id\": \"f1\", \"amount\": ", "[{\"event_id\":\"f2\"}]", ""];
const WELL_FORMED = ["{\"event_id\":\"order-1\",\"note\":\"someone else's\"}", "{\"event_id\":\"order-2\"}"];

describe("a measured run with foreign records in its input", () => {
  let admin: KafkaAdmin;
  let bench: BenchContext;
  let product: Product;

  beforeAll(async () => {
    admin = await KafkaAdmin.connect(bootstrap);
    product = (await discoverProducts(repoRoot())).find((p) => p.id === "node") as Product;
    bench = await testBenchContext(bootstrap, admin, { name: "foreign-it", speedReference: 0 });
  }, 60_000);
  afterAll(async () => admin?.close());

  /** Once gendata's records follow the gate's in the input of the topic named from `prefix`, writes the foreign records among them. */
  async function foreignWriter(prefix: string): Promise<boolean> {
    const deadline = Date.now() + 240_000;
    while (Date.now() < deadline) {
      const input = (await admin.listTopics()).find((t) => t.startsWith(prefix) && t.endsWith(".in"));
      if (input && (await admin.endOffset(input)) > FIXTURE_COUNT + 2000) {
        await produceMessages(bootstrap, input, [...MALFORMED, ...WELL_FORMED].map((value, i) => ({ key: `foreign-${i}`, value })));
        return true;
      }
      await new Promise((r) => setTimeout(r, 200));
    }
    return false;
  }

  it("reports them as foreign, with 0 lost and no backlog left", async () => {
    const prepared = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: cacheRoot(), log: () => undefined });
    if (!prepared.ok) throw new Error(prepared.reason);
    const settings = { rate: 1000, warmupSec: 3, settleCapSec: 30, windowSec: 6, parallelism: 1, seed: FIXTURE_SEED, drainTimeoutSec: 30, hangSec: 30 };

    const writer = foreignWriter("bench.node.1000.");
    const run = await measureRun(product, prepared, settings, bench);
    expect(await writer).toBe(true);

    const d = run.delivery;
    expect(d?.foreign).toEqual({ count: MALFORMED.length + WELL_FORMED.length, malformed: MALFORMED.length, offsets: expect.any(Array) });
    expect(d?.foreign?.offsets).toHaveLength(MALFORMED.length + WELL_FORMED.length);
    expect(d?.lost).toBe(0);
    expect(d?.distinctOutputs).toBe(d?.produced);
    // Invalid: someone else wrote into the row's input. Said as that, not as a loss or a backlog.
    expect(run.status).toBe("invalid");
    expect(run.reason).toContain(`${MALFORMED.length + WELL_FORMED.length} foreign records in the input`);
    expect(run.reason).not.toMatch(/lost|backlog/);
  }, 600_000);

  it("in a knee search's session, its audit reports them as foreign on every step, with 0 lost", async () => {
    const prepared = await product.prepare({ repoRoot: repoRoot(), modelsDir: modelsDir(), cacheDir: cacheRoot(), log: () => undefined });
    if (!prepared.ok) throw new Error(prepared.reason);
    const settings: RunSettings = {
      rate: 0, warmupSec: 3, settleCapSec: 30, windowSec: 6, parallelism: 1, seed: FIXTURE_SEED, drainTimeoutSec: 30, hangSec: 30,
      windowRule: { minSec: 5, maxSec: 6, relHalfWidth: 0.02 },
    };
    const session = new PacedSession(product, prepared, settings, bench);
    await session.open();
    const writer = foreignWriter("bench.node.paced.");
    const first = await session.step(1000, "paced");
    expect(await writer).toBe(true);
    const second = await session.step(1500, "paced");
    const why = await session.close();

    expect(why).toContain(`${MALFORMED.length + WELL_FORMED.length} foreign records in the input`);
    expect(why).not.toMatch(/lost|backlog/);
    for (const run of [first, second]) {
      expect(run.delivery?.foreign).toMatchObject({ count: MALFORMED.length + WELL_FORMED.length, malformed: MALFORMED.length });
      expect(run.delivery?.lost).toBe(0);
      expect(run.status).toBe("invalid");
    }
    // Every record of the bench's own came out once: the two steps' and the gate's.
    expect(second.delivery?.distinctOutputs).toBe(second.delivery?.produced);
  }, 600_000);
});
