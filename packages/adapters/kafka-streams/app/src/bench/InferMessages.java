package bench;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedInputStream;
import com.google.protobuf.CodedOutputStream;
import com.google.protobuf.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * The two Open Inference Protocol (KServe v2) messages the served row exchanges, on the wire with
 * protobuf-java's CodedOutputStream and CodedInputStream: the fields it uses of
 * grpc_predict_v2.proto (package inference), by their numbers there. No protoc runs here, so the
 * few fields are written by hand; any other field of an answer is skipped, as protobuf skips an
 * unknown field.
 *
 *   ModelInferRequest:  model_name = 1, inputs = 5 (InferInputTensor), outputs = 6
 *                       (InferRequestedOutputTensor: name = 1), raw_input_contents = 7
 *   ModelInferResponse: outputs = 5 (InferOutputTensor), raw_output_contents = 6
 *   InferInputTensor / InferOutputTensor: name = 1, datatype = 2, shape = 3 (packed int64),
 *                       contents = 5 (InferTensorContents: fp32_contents = 6, packed float)
 *
 * Fields are written in number order with packed shapes, as protobuf's own serialisers write them.
 */
final class InferMessages {
    private InferMessages() {}

    /** The server answered, but not with one finite FP32 risk per record: no retry can fix that. */
    static final class BadAnswer extends Exception {
        private static final long serialVersionUID = 1L;

        BadAnswer(String message) {
            super(message);
        }
    }

    /** One output tensor of an answer, as it came. */
    record Tensor(String name, String datatype, List<Long> shape, List<Float> fp32Contents) {}

    private interface Body {
        void write(CodedOutputStream out) throws IOException;
    }

    private static byte[] message(Body body) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        CodedOutputStream out = CodedOutputStream.newInstance(bytes);
        try {
            body.write(out);
            out.flush();
        } catch (IOException e) {
            throw new IllegalStateException("writing to memory failed", e);
        }
        return bytes.toByteArray();
    }

    /**
     * A ModelInferRequest of one FP32 input `input` of shape [records, columns] whose row-major
     * values are `features`, sent raw (little-endian, in raw_input_contents), asking for `output`.
     */
    static byte[] request(String model, String input, String output, float[] features, int columns) {
        if (columns <= 0 || features.length % columns != 0) throw new IllegalArgumentException(
            features.length + " values are not whole rows of " + columns);
        long records = features.length / columns;
        byte[] tensor = message(out -> {
            out.writeString(1, input);
            out.writeString(2, "FP32");
            out.writeTag(3, WireFormat.WIRETYPE_LENGTH_DELIMITED);
            out.writeUInt32NoTag(CodedOutputStream.computeInt64SizeNoTag(records) + CodedOutputStream.computeInt64SizeNoTag(columns));
            out.writeInt64NoTag(records);
            out.writeInt64NoTag(columns);
        });
        byte[] wanted = message(out -> out.writeString(1, output));
        ByteBuffer raw = ByteBuffer.allocate(features.length * Float.BYTES).order(ByteOrder.LITTLE_ENDIAN);
        for (float f : features) raw.putFloat(f);
        return message(out -> {
            out.writeString(1, model);
            out.writeByteArray(5, tensor);
            out.writeByteArray(6, wanted);
            out.writeByteArray(7, raw.array());
        });
    }

    /**
     * The risks a ModelInferResponse holds for `records` records in its output `output`: one finite
     * FP32 value per record, from raw_output_contents (indexed as the outputs are) or the tensor's
     * fp32_contents; anything else is a BadAnswer saying what came instead.
     */
    static float[] risks(byte[] response, String output, int records) throws BadAnswer {
        List<Tensor> outputs = new ArrayList<>();
        List<ByteString> raw = new ArrayList<>();
        try {
            CodedInputStream in = CodedInputStream.newInstance(response);
            for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
                if (delimited(tag, 5)) outputs.add(tensor(in.readBytes()));
                else if (delimited(tag, 6)) raw.add(in.readBytes());
                else in.skipField(tag);
            }
        } catch (IOException e) {
            throw new BadAnswer("the model server's answer is not a ModelInferResponse: " + e.getMessage());
        }
        int index = 0;
        while (index < outputs.size() && !outputs.get(index).name().equals(output)) index++;
        if (index == outputs.size()) throw new BadAnswer("the model server's answer has no output '" + output + "'");
        Tensor tensor = outputs.get(index);
        if (!tensor.datatype().equals("FP32")) throw new BadAnswer("the model server answered '" + output + "' as " + tensor.datatype() + ", not FP32");
        if (!tensor.shape().equals(List.of((long) records, 1L))) throw new BadAnswer(
            "the model server answered '" + output + "' of shape " + tensor.shape() + " for " + records + " records; expected [" + records + ", 1]");
        float[] risks = index < raw.size() ? floats(raw.get(index), output) : unboxed(tensor.fp32Contents());
        if (risks.length != records) throw new BadAnswer("the model server sent " + risks.length + " values of '" + output + "' for " + records + " records");
        for (int i = 0; i < risks.length; i++) {
            if (!Float.isFinite(risks[i])) throw new BadAnswer(
                "the model server answered '" + output + "' with " + risks[i] + " for record " + i + " of " + records + ": not a risk");
        }
        return risks;
    }

    private static Tensor tensor(ByteString bytes) throws IOException {
        CodedInputStream in = bytes.newCodedInput();
        String name = "";
        String datatype = "";
        List<Long> shape = new ArrayList<>();
        List<Float> contents = new ArrayList<>();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (delimited(tag, 1)) name = in.readStringRequireUtf8();
            else if (delimited(tag, 2)) datatype = in.readStringRequireUtf8();
            else if (delimited(tag, 3)) readPacked(in, () -> shape.add(in.readInt64()));
            else if (tag == tag(3, WireFormat.WIRETYPE_VARINT)) shape.add(in.readInt64());
            else if (delimited(tag, 5)) fp32Contents(in.readBytes(), contents);
            else in.skipField(tag);
        }
        return new Tensor(name, datatype, shape, contents);
    }

    /** InferTensorContents' fp32_contents (field 6), packed or not; its other fields are skipped. */
    private static void fp32Contents(ByteString bytes, List<Float> into) throws IOException {
        CodedInputStream in = bytes.newCodedInput();
        for (int tag = in.readTag(); tag != 0; tag = in.readTag()) {
            if (delimited(tag, 6)) readPacked(in, () -> into.add(in.readFloat()));
            else if (tag == tag(6, WireFormat.WIRETYPE_FIXED32)) into.add(in.readFloat());
            else in.skipField(tag);
        }
    }

    /** The wire format's tag of a field sent as `wireType` (protobuf-java keeps its WireFormat.makeTag to itself). */
    private static int tag(int field, int wireType) {
        return field << 3 | wireType;
    }

    /** Whether the tag is field `field` sent length-delimited: a string, bytes, a message or a packed list. */
    private static boolean delimited(int tag, int field) {
        return tag == tag(field, WireFormat.WIRETYPE_LENGTH_DELIMITED);
    }

    private interface Element {
        void read() throws IOException;
    }

    private static void readPacked(CodedInputStream in, Element element) throws IOException {
        int limit = in.pushLimit(in.readRawVarint32());
        while (in.getBytesUntilLimit() > 0) element.read();
        in.popLimit(limit);
    }

    private static float[] floats(ByteString bytes, String output) throws BadAnswer {
        if (bytes.size() % Float.BYTES != 0) throw new BadAnswer(
            "the model server sent " + bytes.size() + " raw bytes of '" + output + "', not whole FP32 values");
        ByteBuffer buffer = bytes.asReadOnlyByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        float[] values = new float[bytes.size() / Float.BYTES];
        for (int i = 0; i < values.length; i++) values[i] = buffer.getFloat();
        return values;
    }

    private static float[] unboxed(List<Float> values) {
        float[] out = new float[values.size()];
        for (int i = 0; i < out.length; i++) out[i] = values.get(i);
        return out;
    }
}
