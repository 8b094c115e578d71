import { placementPrerequisite, sparkPlacement } from "./cluster.ts";

describe("where the Spark row's executors run", () => {
  it("runs local[N] on loopback unless a master is named", () => {
    expect(sparkPlacement({})).toEqual({ driverHost: "127.0.0.1" });
    expect(sparkPlacement({ BENCH_SPARK_MASTER: " " })).toEqual({ driverHost: "127.0.0.1" });
    expect(
      sparkPlacement({ BENCH_SPARK_MASTER: "spark://10.0.0.5:7077", BENCH_SPARK_DRIVER_HOST: "10.0.0.9" }),
    ).toEqual({ master: "spark://10.0.0.5:7077", driverHost: "10.0.0.9" });
  });

  it("shows the doctor which, and the variable that changes it", () => {
    expect(placementPrerequisite({})).toMatchObject({ ok: true, have: expect.stringContaining("BENCH_SPARK_MASTER") });
    expect(placementPrerequisite({ BENCH_SPARK_MASTER: "spark://127.0.0.1:7077" })).toEqual({ name: "Spark master", have: "spark://127.0.0.1:7077", ok: true });
  });
});
