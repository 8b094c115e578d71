package bench;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The bench's complete-record rule (models/bench_kit.py record_problem), for a Jackson tree: a
 * JSON object with a string event_id, and finite numbers (not booleans, not numeric strings)
 * for ts_ms and the four metrics. JSON's 1e999 reads as infinity, so finiteness is checked.
 */
final class RecordCheck {
    static final String[] METRICS = {"latency_ms", "queue_depth", "cpu_usage", "error_count"};

    private RecordCheck() {}

    /** Why the record cannot be scored, or null for a complete telemetry record. */
    static String problem(JsonNode record) {
        if (record == null || !record.isObject()) {
            return "not a JSON object: " + (record == null || record.isMissingNode() ? "nothing" : record.getNodeType().name().toLowerCase());
        }
        if (!record.path("event_id").isTextual()) return "no event_id string";
        String tsProblem = numberProblem(record, "ts_ms");
        if (tsProblem != null) return tsProblem;
        for (String name : METRICS) {
            String metricProblem = numberProblem(record, name);
            if (metricProblem != null) return metricProblem;
        }
        return null;
    }

    private static String numberProblem(JsonNode record, String name) {
        JsonNode value = record.path(name);
        // isNumber() is false for BooleanNode and TextNode, as bench_kit refuses bool and str.
        if (value.isNumber() && Double.isFinite(value.doubleValue())) return null;
        return name + " is not a finite number: " + (value.isMissingNode() ? "missing" : value.toString());
    }
}
