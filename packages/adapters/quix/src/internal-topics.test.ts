import { quixInternalTopics } from "./internal-topics.ts";

describe("quixInternalTopics", () => {
  it("finds the group's changelog and repartition topics and nothing else", () => {
    const topics = [
      "bench-in",
      "bench-out",
      "changelog__g1--bench-in--default",
      "repartition__g1--bench-in--by_host",
      "changelog__g2--bench-in--default",
      "changelog__g1x--bench-in--default",
    ];
    expect(quixInternalTopics(topics, "g1")).toEqual(["changelog__g1--bench-in--default", "repartition__g1--bench-in--by_host"]);
  });

  it("is empty for a stateless app", () => {
    expect(quixInternalTopics(["bench-in", "bench-out", "__consumer_offsets"], "g1")).toEqual([]);
  });
});
