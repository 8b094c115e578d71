package bench;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What ScoreProcessor scores a complete record with: the model in the app (RiskModel, ONNX
 * Runtime) or on a model server (ServedModel, one Open Inference Protocol call). Either has
 * reproduced the card's probe rows before it is handed a record.
 */
interface Scorer {
    /** The model's risk for one complete record (RecordCheck.problem(record) == null). */
    float score(JsonNode record) throws Exception;

    /** Frees the model (ONNX Runtime's session, or the channel to the server) as the app ends. */
    void close() throws Exception;
}
