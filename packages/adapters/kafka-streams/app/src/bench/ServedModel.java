package bench;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.CallOptions;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The model on a model server: each record's four normalised features sent as ONE Open Inference
 * Protocol (KServe v2) ModelInfer call over gRPC (grpc-java, a blocking unary call; the messages
 * from InferMessages), the risk read back from the answer. One call per record, as the app scores
 * embedded: the Processor API hands process() one record.
 *
 * No record may be committed unscored. The call blocks the stream thread, and Streams commits only
 * from that thread's loop, so while a call waits nothing is committed. A server that is down or
 * slow (UNAVAILABLE, DEADLINE_EXCEEDED past CALL_TIMEOUT_MS) is called again every RETRY_PAUSE_MS
 * while the record waits, with one line logged per outage, for at most OUTAGE_LIMIT_MS; a wrong
 * answer (another output, type, shape or count, a value that is not finite, or a refused request)
 * is a BadAnswer. Either failure ends the app (ScoreApp fails the stream thread on a processing
 * error when served) before the record is produced or its offset committed.
 */
final class ServedModel implements Scorer {
    private static final Logger LOG = LoggerFactory.getLogger(ServedModel.class);
    /** One call's longest wait for its answer: far above one record's forward on a busy core. */
    static final long CALL_TIMEOUT_MS = 10_000;
    /** How long an outage may last before the app gives up: a server's restart, its model load included. */
    static final long OUTAGE_LIMIT_MS = 120_000;
    private static final long RETRY_PAUSE_MS = 200;

    /** Both directions are the message bytes InferMessages writes and reads, so a malformed answer is reported as one. */
    private static final MethodDescriptor.Marshaller<byte[]> BYTES = new MethodDescriptor.Marshaller<>() {
        @Override
        public InputStream stream(byte[] value) {
            return new ByteArrayInputStream(value);
        }

        @Override
        public byte[] parse(InputStream stream) {
            try {
                return stream.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    };

    static final MethodDescriptor<byte[], byte[]> MODEL_INFER = MethodDescriptor.<byte[], byte[]>newBuilder()
        .setType(MethodDescriptor.MethodType.UNARY)
        .setFullMethodName(MethodDescriptor.generateFullMethodName("inference.GRPCInferenceService", "ModelInfer"))
        .setRequestMarshaller(BYTES)
        .setResponseMarshaller(BYTES)
        .build();

    private final String address;
    private final ModelCard card;
    private final ManagedChannel channel;
    private final BooleanSupplier stopping;
    /** The largest difference from the card's probe risks, checked when connected. */
    final double probeError;

    /** A client of the server at `address` (host:port), checked: the server reproduces the card's probe rows. */
    ServedModel(String address, ModelCard card, BooleanSupplier stopping) throws Exception {
        this.address = address;
        this.card = card;
        this.stopping = stopping;
        channel = Grpc.newChannelBuilder(address, InsecureChannelCredentials.create()).build();
        try {
            probeError = card.checkProbes(this::score, " by the model server at " + address + ": it hosts another model");
        } catch (Exception e) {
            channel.shutdownNow();
            throw e;
        }
    }

    @Override
    public float score(JsonNode record) throws InferMessages.BadAnswer, InterruptedException {
        float[] features = new float[card.features.length];
        for (int i = 0; i < features.length; i++) features[i] = ModelCard.feature(record.get(card.features[i]).doubleValue(), card.maxima[i]);
        byte[] request = InferMessages.request(card.name, card.inputName, card.outputName, features, features.length);
        return InferMessages.risks(call(request), card.outputName, 1)[0];
    }

    /** ONE ModelInfer call, repeated through an outage, never past a refusal. */
    private byte[] call(byte[] request) throws InferMessages.BadAnswer, InterruptedException {
        long outageSince = -1;
        for (;;) {
            try {
                CallOptions options = CallOptions.DEFAULT.withDeadlineAfter(CALL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                byte[] answer = ClientCalls.blockingUnaryCall(channel, MODEL_INFER, options, request);
                if (outageSince >= 0) {
                    LOG.info("model server at {} answering again after {} s", address, String.format("%.1f", (System.nanoTime() - outageSince) / 1e9));
                }
                return answer;
            } catch (StatusRuntimeException e) {
                Status.Code code = e.getStatus().getCode();
                if (!retriable(code)) throw new InferMessages.BadAnswer("the model server at " + address + " refused the batch: " + e.getMessage());
                long now = System.nanoTime();
                if (outageSince < 0) {
                    outageSince = now;
                    LOG.warn("model server at {} not answering ({}): the record is held, nothing is committed, retrying for up to {} s",
                        address, code, OUTAGE_LIMIT_MS / 1000);
                }
                long downMs = (now - outageSince) / 1_000_000;
                if (downMs > OUTAGE_LIMIT_MS || stopping.getAsBoolean()) throw new IllegalStateException("the model server at " + address
                    + " has not answered for " + downMs / 1000 + " s: " + e.getMessage() + "; the record is not committed and will be read again", e);
                Thread.sleep(RETRY_PAUSE_MS);
                // grpc-java backs off its reconnects up to minutes apart: the next call reconnects at once instead, so a server back is found within a pause.
                channel.resetConnectBackoff();
            }
        }
    }

    /** A server that is down, restarting or slow, as gRPC says it: worth another call. */
    static boolean retriable(Status.Code code) {
        return code == Status.Code.UNAVAILABLE || code == Status.Code.DEADLINE_EXCEEDED;
    }

    @Override
    public void close() throws InterruptedException {
        channel.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
    }
}
