import { KafkaAdmin } from "@bench/core";

type AdminCalls = ConstructorParameters<typeof KafkaAdmin>[0];
import { brokerUnreachable, INJECT_ADMIN_ERROR_ENV, rowAdmin, rowFault } from "./row-fault.ts";

/** A stand-in for kafkajs' admin (a unit test's double): lists one topic, creates nothing. */
const calls = (): AdminCalls & { created: number } => {
  const double = {
    created: 0,
    createTopics: async () => {
      double.created++;
      return true;
    },
    deleteTopics: async () => undefined,
    listTopics: async () => ["t"],
    fetchTopicOffsets: async () => [],
    fetchOffsets: async () => [],
    disconnect: async () => undefined,
  };
  return double as unknown as AdminCalls & { created: number };
};

describe("one row's fault stays that row's", () => {
  it("the test seam refuses topics only for the row it names; every other call and row reach the real admin", async () => {
    const inner = calls();
    const admin = new KafkaAdmin(inner);
    const env = { [INJECT_ADMIN_ERROR_ENV]: "flink" };
    expect(rowAdmin(admin, "node", env)).toBe(admin);
    expect(rowAdmin(admin, "flink", {})).toBe(admin);
    const faulty = rowAdmin(admin, "flink", env);
    await expect(faulty.createTopics([{ name: "x" }])).rejects.toThrow(/admin error injected/);
    expect(inner.created).toBe(0);
    expect(await faulty.listTopics()).toEqual(["t"]);
  });

  it("a row that throws gives its reason; one that ends gives none", async () => {
    expect(await rowFault(async () => undefined)).toBeUndefined();
    expect(await rowFault(async () => {
      throw new Error("topic would not be made");
    })).toBe("topic would not be made");
  });

  it("a broker that answers is reachable; one that refuses or never answers is not, with why", async () => {
    const answering = async () => ({ listTopics: async () => ["t"], close: async () => undefined });
    expect(await brokerUnreachable("h:1", answering)).toBeUndefined();
    const refusing = async (): Promise<never> => {
      throw new Error("Connection error: ECONNREFUSED");
    };
    expect(await brokerUnreachable("h:1", refusing)).toBe("the broker at h:1 cannot be reached: Connection error: ECONNREFUSED");
    const silent = async () => ({ listTopics: () => new Promise<string[]>(() => undefined), close: async () => undefined });
    expect(await brokerUnreachable("h:1", silent, 50)).toMatch(/no answer within 0.05 s/);
  });
});
