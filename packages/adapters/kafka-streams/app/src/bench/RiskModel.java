package bench;

import ai.onnxruntime.NodeInfo;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
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
final class RiskModel implements AutoCloseable {
    private static final long[] SHAPE = {1, 4};

    private final OrtEnvironment env;
    private final OrtSession session;
    private final String inputName;
    private final String outputName;
    private final String[] features;
    /** The largest difference from the card's probe risks (computed with torch), checked at load. */
    final double probeError;
    private final double[] maxima;
    // Direct and in native order: ONNX Runtime wraps it without a copy (a heap buffer would be
    // copied into a freshly allocated direct buffer on every call).
    private final FloatBuffer input = ByteBuffer.allocateDirect(4 * Float.BYTES).order(ByteOrder.nativeOrder()).asFloatBuffer();

    RiskModel(Path modelsDir, ObjectMapper json) throws IOException, OrtException {
        JsonNode card = json.readTree(modelsDir.resolve(modelName() + ".card.json").toFile());
        inputName = card.path("onnx").path("input").asText();
        outputName = card.path("onnx").path("output").asText();
        features = new String[card.path("features").size()];
        maxima = new double[features.length];
        for (int i = 0; i < features.length; i++) {
            features[i] = card.path("features").get(i).asText();
            maxima[i] = card.path("maxima").path(features[i]).asDouble();
        }
        env = OrtEnvironment.getEnvironment();
        OrtSession.SessionOptions options = new OrtSession.SessionOptions();
        // A 4-16-1 network: more intra-op threads only add wake-ups (every row runs its model on one thread).
        options.setIntraOpNumThreads(1);
        options.setInterOpNumThreads(1);
        session = env.createSession(modelsDir.resolve(card.path("onnx").path("file").asText()).toString(), options);
        probeError = checkProbes(card);
    }

    /** BENCH_MODEL names the card (the runner's --model); the card names the ONNX export. */
    static String modelName() {
        String name = System.getenv("BENCH_MODEL");
        return name == null || name.isEmpty() ? "risk_mlp" : name;
    }

    /**
     * ONNX Runtime against the card's probe rows, as risk_model.load_torch_model checks torch:
     * a model that scores a probe outside the card's tolerance is refused before any record.
     */
    private double checkProbes(JsonNode card) throws OrtException {
        double tolerance = card.path("tolerance").asDouble();
        double worst = 0;
        for (JsonNode probe : card.path("probes")) {
            double error = Math.abs(score(probe.path("metrics")) - probe.path("risk").asDouble());
            if (!(error <= tolerance)) throw new IllegalStateException(
                "probe " + probe.path("metrics") + " scored outside the card's tolerance " + tolerance + ": error " + error);
            worst = Math.max(worst, error);
        }
        return worst;
    }

    /** The session's inputs and outputs, for the log: names, types and shapes. */
    String describe() throws OrtException {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, NodeInfo> e : session.getInputInfo().entrySet()) text.append("input ").append(e.getValue()).append("; ");
        for (Map.Entry<String, NodeInfo> e : session.getOutputInfo().entrySet()) text.append("output ").append(e.getValue());
        return text.toString();
    }

    /** risk_model.normalise: clip(value / maximum, 0, 1) in double, then float32 (as torch.tensor does). */
    static float feature(double value, double maximum) {
        return (float) Math.min(Math.max(value / maximum, 0.0), 1.0);
    }

    /** The model's risk for one complete record (RecordCheck.problem(record) == null). */
    float score(JsonNode record) throws OrtException {
        input.clear();
        for (int i = 0; i < features.length; i++) input.put(feature(record.get(features[i]).doubleValue(), maxima[i]));
        input.flip();
        return forward(input, SHAPE)[0][0];
    }

    /**
     * One run() on normalised features already in a direct, native-order buffer of shape
     * [records, 4]: the row's model call, which ModelAlone times alone at the row's shape.
     */
    float[][] forward(FloatBuffer features, long[] shape) throws OrtException {
        try (OnnxTensor tensor = OnnxTensor.createTensor(env, features, shape);
             OrtSession.Result result = session.run(Map.of(inputName, tensor))) {
            return (float[][]) result.get(outputName).orElseThrow().getValue();
        }
    }

    @Override
    public void close() throws OrtException {
        session.close();
    }
}
