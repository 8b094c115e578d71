import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The JVM yardstick's timed work in one fresh JVM: what the kafka-streams row does to a record
 * on the JVM, without Kafka and without the model's forward (ONNX Runtime, native code): a
 * Jackson tree decode, the bench's complete-record check, the four features normalised, the
 * output record encoded with Jackson. The clock is this thread's CPU time, so the JIT's and the
 * collector's own threads are not in it.
 *
 * usage: java -cp ... YardstickWork RECORDS_FILE PER_REP REPS WARMUP
 * Prints one JSON line: each repetition's CPU nanoseconds and a checksum.
 */
public final class YardstickWork {
    private static final String[] METRICS = {"latency_ms", "queue_depth", "cpu_usage", "error_count"};
    private static final double[] MAXIMA = {5000.0, 1000.0, 100.0, 50.0};
    private static final ObjectMapper JSON = new ObjectMapper();

    private YardstickWork() {}

    private static boolean complete(JsonNode record) {
        if (record == null || !record.isObject() || !record.path("event_id").isTextual()) return false;
        if (!finite(record.path("ts_ms"))) return false;
        for (String name : METRICS) if (!finite(record.path(name))) return false;
        return true;
    }

    private static boolean finite(JsonNode value) {
        return value.isNumber() && Double.isFinite(value.doubleValue());
    }

    private static long run(List<byte[]> records, int count) throws Exception {
        long checksum = 0;
        double[] features = new double[METRICS.length];
        for (int i = 0; i < count; i++) {
            JsonNode record = JSON.readTree(records.get(i % records.size()));
            if (!complete(record)) throw new IllegalStateException("incomplete record " + i);
            for (int k = 0; k < METRICS.length; k++) features[k] = Math.min(Math.max(record.get(METRICS[k]).doubleValue() / MAXIMA[k], 0.0), 1.0);
            ObjectNode out = JSON.createObjectNode();
            out.set("event_id", record.get("event_id"));
            out.set("ts_ms", record.get("ts_ms"));
            out.put("risk", features[0] * 0.5);
            checksum += JSON.writeValueAsBytes(out).length;
        }
        return checksum;
    }

    public static void main(String[] args) throws Exception {
        List<byte[]> records = Files.readAllLines(Path.of(args[0])).stream().map(String::getBytes).toList();
        int perRep = Integer.parseInt(args[1]);
        int reps = Integer.parseInt(args[2]);
        int warmup = Integer.parseInt(args[3]);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        run(records, warmup);
        StringBuilder cpuNanos = new StringBuilder();
        long checksum = 0;
        for (int r = 0; r < reps; r++) {
            long start = threads.getCurrentThreadCpuTime();
            checksum = run(records, perRep);
            cpuNanos.append(r == 0 ? "" : ",").append(threads.getCurrentThreadCpuTime() - start);
        }
        String runtime = "java " + System.getProperty("java.version") + ", jackson " + com.fasterxml.jackson.databind.cfg.PackageVersion.VERSION;
        System.out.println("{\"cpuNanos\":[" + cpuNanos + "],\"checksum\":" + checksum + ",\"runtime\":\"" + runtime + "\"}");
    }
}
