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
 * whole process). The JVM compiles the call while it runs, so one repetition's worth of calls goes
 * untimed first, then the warm calls.
 *
 *   java -cp … bench.ModelAlone MODELS_DIR RECORDS REPETITIONS MIN_CPU_SEC WARM_CALLS
 *
 * prints one JSON line: {"versions": {"java": …}, "usPerRecord": [one figure a repetition]}.
 */
public final class ModelAlone {
    private ModelAlone() {}

    private static double cpuSeconds() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime() / 1e9;
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
        double sink = 0;
        double warmUntil = cpuSeconds() + minCpuSec;
        while (cpuSeconds() < warmUntil) sink += model.forward(features, shape)[0][0];
        for (int i = 0; i < warmCalls; i++) sink += model.forward(features, shape)[0][0];
        StringBuilder figures = new StringBuilder();
        for (int rep = 0; rep < repetitions; rep++) {
            long calls = 0;
            double start = cpuSeconds();
            double spent;
            while ((spent = cpuSeconds() - start) < minCpuSec) {
                sink += model.forward(features, shape)[0][0];
                calls++;
            }
            figures.append(rep == 0 ? "" : ",").append(spent / (calls * (double) records) * 1e6);
        }
        if (!(sink > 0)) throw new IllegalStateException("the model scored nothing above 0");
        System.out.println("{\"versions\": {\"java\": \"" + System.getProperty("java.version") + "\"}, \"usPerRecord\": [" + figures + "]}");
        model.close();
    }
}
