package bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Decode, check, score and encode one record: a full Jackson parse of the value into a tree,
 * the bench's complete-record rule, one score (an ONNX Runtime run, or one call to the model
 * server when served), and {"event_id","ts_ms","risk"} out, keyed by the record's partition_key
 * (no key when it has none). A record that is not JSON or not complete is skipped and counted
 * with its offset (the Processor API is used rather than mapValues because only the processor
 * context gives the record's offset).
 */
final class ScoreProcessor implements Processor<byte[], byte[], String, byte[]> {
    private static final Logger LOG = LoggerFactory.getLogger(ScoreProcessor.class);

    private final ObjectMapper json;
    private final Scorer model;
    private final AtomicLong skipped;
    private ProcessorContext<String, byte[]> context;

    ScoreProcessor(ObjectMapper json, Scorer model, AtomicLong skipped) {
        this.json = json;
        this.model = model;
        this.skipped = skipped;
    }

    @Override
    public void init(ProcessorContext<String, byte[]> context) {
        this.context = context;
    }

    @Override
    public void process(Record<byte[], byte[]> record) {
        JsonNode value;
        try {
            value = record.value() == null ? null : json.readTree(record.value());
        } catch (Exception e) {
            skip("not JSON: " + firstLine(e.getMessage()));
            return;
        }
        String problem = RecordCheck.problem(value);
        if (problem != null) {
            skip(problem);
            return;
        }
        float risk;
        try {
            risk = model.score(value);
        } catch (Exception e) {
            // A model that cannot run (or a server that cannot answer) is no bad record: Streams' processing handler sees it.
            throw new IllegalStateException("scoring failed", e);
        }
        ObjectNode out = json.createObjectNode();
        out.set("event_id", value.get("event_id"));
        // ts_ms is republished as it came (the gate compares it exactly).
        out.set("ts_ms", value.get("ts_ms"));
        out.put("risk", (double) risk);
        JsonNode partitionKey = value.get("partition_key");
        String key = partitionKey != null && partitionKey.isTextual() ? partitionKey.asText() : null;
        try {
            context.forward(record.withKey(key).withValue(json.writeValueAsBytes(out)));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("encoding failed", e);
        }
    }

    private void skip(String reason) {
        long offset = context.recordMetadata().map(RecordMetadata::offset).orElse(-1L);
        LOG.warn("skipped record at offset {}: {} (skipped {})", offset, reason, skipped.incrementAndGet());
    }

    private static String firstLine(String message) {
        if (message == null) return "unreadable";
        String line = message.lines().findFirst().orElse("");
        return line.length() > 160 ? line.substring(0, 160) + "..." : line;
    }
}
