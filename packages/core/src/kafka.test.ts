import { beforeOffset, KafkaAdmin, type AdminCalls } from "./kafka.ts";

const at = (...offsets: number[]): Array<{ offset: number }> => offsets.map((offset) => ({ offset }));

describe("a reader's batch cut at an offset", () => {
  it("keeps a batch that ends before the offset whole (the same array, nothing copied)", () => {
    const batch = at(3, 4, 5);
    expect(beforeOffset(batch, 6)).toBe(batch);
    expect(beforeOffset(batch, Number.POSITIVE_INFINITY)).toBe(batch);
  });

  it("drops the records at and past the offset, gaps (transaction markers) included", () => {
    expect(beforeOffset(at(3, 4, 7, 8), 5)).toEqual(at(3, 4));
    expect(beforeOffset(at(3, 4, 5), 5)).toEqual(at(3, 4));
    expect(beforeOffset(at(5, 6), 5)).toEqual([]);
  });

  it("keeps an empty batch empty", () => {
    expect(beforeOffset([], 0)).toEqual([]);
  });
});

describe("the admin's topic deletion", () => {
  /** A double of kafkajs' admin whose calls end when the test says, and which logs when each starts and ends. */
  function heldAdmin() {
    const log: string[] = [];
    const held = new Map<string, () => void>();
    const hold = <T>(name: string, value: T) => () => {
      log.push(`${name} starts`);
      return new Promise<T>((resolve) => held.set(name, () => (log.push(`${name} ends`), resolve(value))));
    };
    const admin = {
      listTopics: async () => ["old-in", "old-out", "new-in"],
      deleteTopics: hold("delete", undefined),
      fetchTopicOffsets: hold("offsets", [{ partition: 0, offset: "0", high: "42", low: "0" }]),
    } as unknown as AdminCalls;
    const started = async (name: string): Promise<void> => {
      for (let i = 0; i < 50 && !held.has(name); i++) await new Promise((r) => setImmediate(r));
    };
    const release = async (name: string): Promise<void> => {
      await started(name);
      const end = held.get(name);
      if (end === undefined) throw new Error(`${name} never started`);
      held.delete(name);
      end();
    };
    return { admin: new KafkaAdmin(admin), log, started, release };
  }

  it("waits for the reads in flight, and reads asked for meanwhile wait for it", async () => {
    const { admin, log, started, release } = heldAdmin();
    const firstRead = admin.endOffset("new-in");
    await started("offsets");
    const deletion = admin.deleteTopics(["old-in", "old-out", "gone"]);
    const laterRead = admin.endOffset("new-in");
    await release("offsets");
    await release("delete");
    await deletion;
    await release("offsets");
    expect(await firstRead).toBe(42);
    expect(await laterRead).toBe(42);
    expect(log).toEqual(["offsets starts", "offsets ends", "delete starts", "delete ends", "offsets starts", "offsets ends"]);
  });
});
