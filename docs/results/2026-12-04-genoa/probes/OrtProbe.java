package bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** RiskModel.score alone, one record per call, as the kafka-streams row calls it: thread CPU µs per call. */
public final class OrtProbe {
    public static void main(String[] args) throws Exception {
        ObjectMapper json = new ObjectMapper();
        RiskModel model = new RiskModel(Path.of(args[0]), json);
        List<String> lines = Files.readAllLines(Path.of(args[1]));
        JsonNode[] records = new JsonNode[100];
        for (int i = 0; i < 100; i++) records[i] = json.readTree(lines.get(i)).path("record");
        var bean = ManagementFactory.getThreadMXBean();
        double sink = 0;
        for (int rep = 0; rep < 6; rep++) {
            long t = bean.getCurrentThreadCpuTime();
            for (int i = 0; i < 200_000; i++) sink += model.score(records[i % 100]);
            System.out.printf("per-call score: %.2f µs%n", (bean.getCurrentThreadCpuTime() - t) / 1e3 / 200_000);
        }
        System.out.println(sink > 0 ? "ok" : "?");
    }
}
