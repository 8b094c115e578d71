import { CONNECTOR, coordinates, jarFileName } from "./connector.ts";

describe("connector artifact", () => {
  it("names the jar as Maven's dependency:copy writes it", () => {
    expect(jarFileName(CONNECTOR)).toBe("flink-sql-connector-kafka-5.0.0-2.2.jar");
  });

  it("gives Maven coordinates groupId:artifactId:version", () => {
    expect(coordinates(CONNECTOR)).toBe("org.apache.flink:flink-sql-connector-kafka:5.0.0-2.2");
  });
});
