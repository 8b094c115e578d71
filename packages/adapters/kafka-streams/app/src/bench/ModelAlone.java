package bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;

/**
 * The model alone in the kafka-streams row's own runtime: RiskModel.forward, the row's ONNX Runtime
 * for Java call, on normalised float32 features of the row's call shape, timed by the JVM's
 * process CPU (every thread, ONNX Runtime's and the JIT's included, as the row's figure counts its
 * whole process). The JVM compiles the call's Java side over its first seconds of calls, in tiers
 * (a plateau at C1's code, then C2's, about half the cost), so warm repetitions run first, untimed:
 * for at least MIN_WARM_CPU_SEC and then until two in a row agree within STEADY_SHARE (JMH's
 * warm-up iterations), then the warm calls.
 *
 *   java -cp … bench.ModelAlone MODELS_DIR RECORDS REPETITIONS MIN_CPU_SEC WARM_CALLS
 *
 * prints one JSON line: {"versions": {"java": …}, "usPerRecord": [one figure a repetition]}.
 */
public final class ModelAlone {
    private ModelAlone() {}

    /** Two warm repetitions this close say the JIT is done with the call. */
    private static final double STEADY_SHARE = 0.05;
    /** Past the JIT's tiers for this call: two repetitions can agree on C1's plateau before C2 halves the cost. */
    private static final double MIN_WARM_CPU_SEC = 5;
    /** The most warm repetitions before the timed ones, whatever they say. */
    private static final int MAX_WARM_REPETITIONS = 40;

    private static double sink;

    private static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
    }

    /** Calls for at least minCpuSec of the process's CPU; µs of CPU per record. */
    private static double repetition(RiskModel model, FloatBuffer features, long[] shape, int records, double minCpuSec) throws Exception {
        long calls = 0;
        double start = cpuSeconds();
        double spent;
        while ((spent = cpuSeconds() - start) < minCpuSec) {
            sink += model.forward(features, shape)[0][0];
            calls++;
        }
        return spent / (calls * (double) records) * 1e6;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) throw new IllegalArgumentException("usage: ModelAlone MODELS_DIR RECORDS REPETITIONS MIN_CPU_SEC WARM_CALLS");
        int records = Integer.parseInt(args[1]);
        int repetitions = Integer.parseInt(args[2]);
        double minCpuSec = Double.parseDouble(args[3]);
        int warmCalls = Integer.parseInt(args[4]);
        RiskModel model = new RiskModel(Path.of(args[0]), new ObjectMapper());
        FloatBuffer features = ByteBuffer.allocateDirect(records * 4 * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();
        // Normalised features in [0, 1): a dense network's cost does not depend on the values.
        for (int i = 0; i < records * 4; i++) features.put(i, (float) ((i * 2654435761L) % 1000) / 1000f);
        long[] shape = {records, 4};
        double warmFrom = cpuSeconds();
        double previous = Double.NaN;
        for (int rep = 0; rep < MAX_WARM_REPETITIONS; rep++) {
            double us = repetition(model, features, shape, records, minCpuSec);
            boolean steady = Math.abs(us - previous) <= STEADY_SHARE * Math.min(us, previous);
            if (steady && cpuSeconds() - warmFrom >= MIN_WARM_CPU_SEC) break;
            previous = us;
        }
        for (int i = 0; i < warmCalls; i++) sink += model.forward(features, shape)[0][0];
        StringBuilder figures = new StringBuilder();
        for (int rep = 0; rep < repetitions; rep++) {
            figures.append(rep == 0 ? "" : ",").append(repetition(model, features, shape, records, minCpuSec));
        }
        if (!(sink > 0)) throw new IllegalStateException("the model scored nothing above 0");
        System.out.println("{\"versions\": {\"java\": \"" + System.getProperty("java.version") + "\"}, \"usPerRecord\": [" + figures + "]}");
        model.close();
    }
}
