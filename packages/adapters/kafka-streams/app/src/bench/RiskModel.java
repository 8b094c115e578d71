package bench;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.file.Path;
import java.util.Map;

/**
 * The frozen risk model through ONNX Runtime, one record per run() call: Kafka Streams hands a
 * processor one record at a time, and batching would mean buffering records by hand across
 * process() calls (and punctuations to flush them), which is not how a Streams app is written.
 * The input and output names and the normalisation maxima come from the model card.
 */
final class RiskModel implements AutoCloseable, Scorer {
    private static final long[] SHAPE = {1, 4};

    private final OrtEnvironment env;
    private final OrtSession session;
    private final ModelCard card;
    /** The largest difference from the card's probe risks (computed with torch), checked at load. */
    final double probeError;
    // Direct and in native order: ONNX Runtime wraps it without a copy (a heap buffer would be
    // copied into a freshly allocated direct buffer on every call).
    private final FloatBuffer input = ByteBuffer.allocateDirect(4 * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();

    RiskModel(Path modelsDir, ObjectMapper json) throws Exception {
        card = ModelCard.load(modelsDir, json);
        env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        // A 4-16-1 network: more intra-op threads only add wake-ups (every row runs its model on one thread).
        options.setIntraOpNumThreads(1);
        options.setInterOpNumThreads(1);
        session = env.createSession(modelsDir.resolve(card.onnxFile).toString(), options);
        probeError = card.checkProbes(this::score, "");
    }

    /** The session's inputs and outputs, for the log: names, types and shapes. */
    String describe() throws OrtException {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, NodeInfo> e : session.getInputInfo().entrySet()) text.append("input ").append(e.getValue()).append("; ");
        for (Map.Entry<String, NodeInfo> e : session.getOutputInfo().entrySet()) text.append("output ").append(e.getValue());
        return text.toString();
    }

    /** The model's risk for one complete record (RecordCheck.problem(record) == null). */
    @Override
    public float score(JsonNode record) throws OrtException {
        input.clear();
        for (int i = 0; i < card.features.length; i++) input.put(ModelCard.feature(record.get(card.features[i]).doubleValue(), card.maxima[i]));
        input.flip();
        return forward(input, SHAPE)[0][0];
    }

    /**
     * One run() on normalised features already in a direct, native-order buffer of shape
     * [records, 4]: the row's model call, which ModelAlone times alone at the row's shape.
     */
    float[][] forward(FloatBuffer features, long[] shape) throws OrtException {
        try (OnnxTensor tensor = OnnxTensor.createTensor(env, features, shape);
             OrtSession.Result result = session.run(Map.of(card.inputName, tensor))) {
            return (float[][]) result.get(card.outputName).orElseThrow().getValue();
        }
    }

    @Override
    public void close() throws OrtException {
        session.close();
    }
}
