import { artifactName, jarsToAdd } from "./jars.ts";

describe("the jars handed to Spark", () => {
  it("names an artifact without its version", () => {
    expect(artifactName("kafka-clients-3.9.2.jar")).toBe("kafka-clients");
    expect(artifactName("spark-sql-kafka-0-10_2.13-4.2.0.jar")).toBe("spark-sql-kafka-0-10_2.13");
    expect(artifactName("scala-parallel-collections_2.13-1.2.0.jar")).toBe("scala-parallel-collections_2.13");
    expect(artifactName("jsr305-3.0.0.jar")).toBe("jsr305");
    expect(artifactName("guava-33.0.0-jre.jar")).toBe("guava");
    expect(artifactName("snappy-java-1.1.10.5.jar")).toBe("snappy-java");
  });

  it("keeps the connector's own jars and leaves out every artifact Spark ships, whatever its version", () => {
    // What Maven resolved for spark-sql-kafka-0-10_2.13:4.2.0, and part of pyspark 4.2.0's jars/.
    const resolved = [
      "commons-pool2-2.13.1.jar",
      "hadoop-client-api-3.5.0.jar",
      "kafka-clients-3.9.2.jar",
      "lz4-java-1.10.1.jar",
      "scala-library-2.13.15.jar",
      "slf4j-api-1.7.36.jar",
      "spark-sql-kafka-0-10_2.13-4.2.0.jar",
      "spark-tags_2.13-4.2.0.jar",
      "spark-token-provider-kafka-0-10_2.13-4.2.0.jar",
    ];
    const ships = [
      "commons-pool-1.5.4.jar",
      "hadoop-client-api-3.5.0.jar",
      "lz4-java-1.11.0.jar",
      "scala-library-2.13.18.jar",
      "slf4j-api-2.0.17.jar",
      "spark-tags_2.13-4.2.0.jar",
      "spark-sql_2.13-4.2.0.jar",
    ];
    expect(jarsToAdd(resolved, ships)).toEqual(
      ["commons-pool2-2.13.1.jar", "kafka-clients-3.9.2.jar", "spark-sql-kafka-0-10_2.13-4.2.0.jar", "spark-token-provider-kafka-0-10_2.13-4.2.0.jar"],
    );
  });
});
