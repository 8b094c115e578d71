package bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The model card (models/NAME.card.json), the one source both scorers read: the ONNX input and
 * output names, the features in the model's order with their normalisation maxima, and the probe
 * rows with the tolerance a scorer must reproduce them within before it scores any record.
 */
final class ModelCard {
    /** A scorer of one probe's metrics object (keyed by feature name), as a record is scored. */
    interface ProbeScorer {
        float score(JsonNode metrics) throws Exception;
    }

    final String name;
    final String onnxFile;
    final String inputName;
    final String outputName;
    final String[] features;
    final double[] maxima;
    private final double tolerance;
    private final JsonNode probes;

    private ModelCard(String name, JsonNode card) {
        this.name = name;
        onnxFile = card.path("onnx").path("file").asText();
        inputName = card.path("onnx").path("input").asText();
        outputName = card.path("onnx").path("output").asText();
        features = new String[card.path("features").size()];
        maxima = new double[features.length];
        for (int i = 0; i < features.length; i++) {
            features[i] = card.path("features").get(i).asText();
            maxima[i] = card.path("maxima").path(features[i]).asDouble();
        }
        tolerance = card.path("tolerance").asDouble();
        probes = card.path("probes");
    }

    /** The card BENCH_MODEL names (the runner's --model), in the models folder. */
    static ModelCard load(Path modelsDir, ObjectMapper json) throws IOException {
        String name = modelName();
        return new ModelCard(name, json.readTree(modelsDir.resolve(name + ".card.json").toFile()));
    }

    static String modelName() {
        String name = System.getenv("BENCH_MODEL");
        return name == null || name.isEmpty() ? "risk_mlp" : name;
    }

    /** risk_model.normalise: clip(value / maximum, 0, 1) in double, then float32 (as torch.tensor does). */
    static float feature(double value, double maximum) {
        return (float) Math.min(Math.max(value / maximum, 0.0), 1.0);
    }

    /**
     * The scorer against the card's probe rows, as risk_model.load_torch_model checks torch: a
     * scorer that scores a probe outside the card's tolerance is refused (`whose` says which, for
     * the message) before any record. Returns the largest difference from the probes' risks.
     */
    double checkProbes(ProbeScorer scorer, String whose) throws Exception {
        double worst = 0;
        for (JsonNode probe : probes) {
            double error = Math.abs(scorer.score(probe.path("metrics")) - probe.path("risk").asDouble());
            if (!(error <= tolerance)) throw new IllegalStateException(
                "probe " + probe.path("metrics") + " scored outside the card's tolerance " + tolerance + ": error " + error + whose);
            worst = Math.max(worst, error);
        }
        return worst;
    }
}
