package bench;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.LogAndContinueExceptionHandler;
import org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Produced;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Kafka Streams row: input topic (byte arrays) -> ScoreProcessor -> output topic, one
 * stream thread, at-least-once with a commit every second, or exactly_once_v2 (BENCH_GUARANTEE) at the
 * commit interval Streams defaults to under it. Settings come from BENCH_*
 * variables (core's benchAppEnv); the shared Kafka client settings arrive already under the
 * Java client's names in BENCH_JAVA_CLIENT (the adapter maps librdkafka's names and states
 * what has no equivalent). It scores with ONNX Runtime in the app (embedded) or, when
 * BENCH_MODEL_SERVER names a model server's gRPC address, through that server (served,
 * ServedModel). Prints BENCH_READY when Streams reaches RUNNING; SIGTERM closes Streams (last
 * commit) and exits 0.
 */
public final class ScoreApp {
    private static final Logger LOG = LoggerFactory.getLogger(ScoreApp.class);
    private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(20);

    private ScoreApp() {}

    public static void main(String[] args) throws Exception {
        Map<String, String> env = System.getenv();
        // A full parse of the whole value: trailing bytes after the object make it unreadable, as json.loads says.
        ObjectMapper json = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        AtomicBoolean stopping = new AtomicBoolean();
        Scorer model = scorer(env, json, stopping);
        AtomicLong skipped = new AtomicLong();

        StreamsBuilder builder = new StreamsBuilder();
        builder.stream(env.get("BENCH_INPUT_TOPIC"), Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()))
            .process(() -> new ScoreProcessor(json, model, skipped))
            .to(env.get("BENCH_OUTPUT_TOPIC"), Produced.with(Serdes.String(), Serdes.ByteArray()));
        Topology topology = builder.build();
        LOG.info("topology: {}", topology.describe());

        KafkaStreams streams = new KafkaStreams(topology, config(env, json));
        String server = servedBy(env);
        run(streams, model, stopping, server == null ? "" : " served by " + server);
    }

    /** The model server's gRPC address (host:port) when the run is served, else null. */
    static String servedBy(Map<String, String> env) {
        String server = env.get("BENCH_MODEL_SERVER");
        return server == null || server.isEmpty() ? null : server;
    }

    /** The model in the app, or on the server (`stopping` cuts an outage short at SIGTERM); either has reproduced the card's probes. */
    private static Scorer scorer(Map<String, String> env, ObjectMapper json, AtomicBoolean stopping) throws Exception {
        Path modelsDir = Path.of(env.get("BENCH_MODELS_DIR"));
        String server = servedBy(env);
        if (server == null) {
            RiskModel model = new RiskModel(modelsDir, json);
            LOG.info("onnx session: {}; the card's probes within its tolerance (largest error {})", model.describe(), model.probeError);
            return model;
        }
        ModelCard card = ModelCard.load(modelsDir, json);
        ServedModel model = new ServedModel(server, card, stopping::get);
        LOG.info("model server at {} hosts {}: the card's probes within its tolerance (largest error {})", server, card.name, model.probeError);
        return model;
    }

    /** Starts Streams, announces RUNNING once, and ends the JVM when Streams fails or SIGTERM arrives. */
    private static void run(KafkaStreams streams, Scorer model, AtomicBoolean stopping, String servedBy) throws InterruptedException {
        AtomicBoolean announced = new AtomicBoolean();
        AtomicBoolean failed = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);
        streams.setStateListener((now, before) -> {
            LOG.info("streams state {} -> {}", before, now);
            if (now == KafkaStreams.State.RUNNING && announced.compareAndSet(false, true)) {
                System.out.println("BENCH_READY kafka-streams" + servedBy);
                System.out.flush();
            }
            if (now == KafkaStreams.State.ERROR) {
                failed.set(true);
                ended.countDown();
            }
        });
        // A stream thread that dies (a model that cannot run, a broker send that fails) ends the app: the runner sees the exit.
        streams.setUncaughtExceptionHandler(e -> {
            LOG.error("stream thread failed", e);
            return StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.SHUTDOWN_CLIENT;
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            stopping.set(true);
            boolean closed = streams.close(CLOSE_TIMEOUT);
            try {
                model.close();
            } catch (Exception e) {
                LOG.warn("closing the model", e);
            }
            LOG.info("streams closed {}", closed ? "cleanly (offsets committed)" : "after the timeout");
            System.out.flush();
            System.err.flush();
            // halt, not exit: the JVM would report SIGTERM as 143 even after a clean close.
            Runtime.getRuntime().halt(closed && !failed.get() ? 0 : 1);
        }, "bench-shutdown"));
        streams.start();
        ended.await();
        LOG.error("streams entered ERROR; exiting");
        System.exit(1);
    }

    static Properties config(Map<String, String> env, ObjectMapper json) throws Exception {
        Properties p = new Properties();
        p.put(StreamsConfig.APPLICATION_ID_CONFIG, env.get("BENCH_GROUP_ID"));
        p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, env.get("BENCH_BOOTSTRAP"));
        if ("exactly-once".equals(env.get("BENCH_GUARANTEE"))) {
            // Each commit is a transaction of the outputs and the offsets; commit.interval.ms keeps
            // Streams' default under exactly_once_v2 (100 ms) and transactional.id is Streams' own.
            p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        } else {
            p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.AT_LEAST_ONCE);
            p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1000);
        }
        // One input partition is one task: a second stream thread would have nothing to do.
        p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 1);
        p.put(StreamsConfig.STATE_DIR_CONFIG, env.get("BENCH_STATE_DIR"));
        // 4.x names (KIP-1056 renamed default.deserialization.exception.handler; KIP-1033 added the processing handler).
        p.put(StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG, LogAndContinueExceptionHandler.class);
        // Served, a record the server did not score fails the stream thread (which commits nothing more) instead of being dropped.
        p.put(StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
            servedBy(env) == null ? LogAndContinueProcessingExceptionHandler.class : LogAndFailProcessingExceptionHandler.class);
        p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        JsonNode client = json.readTree(env.get("BENCH_JAVA_CLIENT"));
        putAll(p, client.path("consumer"), StreamsConfig.consumerPrefix(""));
        putAll(p, client.path("producer"), StreamsConfig.producerPrefix(""));
        LOG.info("BENCH_KAFKA_SETTINGS {}", client);
        int parallelism = Integer.parseInt(env.getOrDefault("BENCH_PARALLELISM", "1"));
        if (parallelism != 1) LOG.info("parallelism {} asked: one partition is one Streams task, so the app keeps one stream thread", parallelism);
        return p;
    }

    private static void putAll(Properties p, JsonNode settings, String prefix) {
        for (Map.Entry<String, JsonNode> e : settings.properties()) p.put(prefix + e.getKey(), e.getValue().asText());
    }
}
