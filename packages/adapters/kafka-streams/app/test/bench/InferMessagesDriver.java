package bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * The message test's way into InferMessages (src/infer-messages.test.ts compiles it against the
 * built app and holds its lines against protobuf's own encoding). One job a line on stdin, one
 * answer a line on stdout:
 *
 *   request MODEL INPUT OUTPUT COLUMNS V1,V2,...   the request's bytes, in hex
 *   risks OUTPUT RECORDS HEX                       the risks, comma-separated, or "BadAnswer: why"
 */
public final class InferMessagesDriver {
    private InferMessagesDriver() {}

    public static void main(String[] args) throws Exception {
        HexFormat hex = HexFormat.of();
        BufferedReader lines = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            String[] job = line.split(" ");
            if (job[0].equals("request")) {
                String[] values = job[5].split(",");
                float[] features = new float[values.length];
                for (int i = 0; i < values.length; i++) features[i] = Float.parseFloat(values[i]);
                System.out.println(hex.formatHex(InferMessages.request(job[1], job[2], job[3], features, Integer.parseInt(job[4]))));
            } else if (job[0].equals("risks")) {
                System.out.println(risks(job[1], Integer.parseInt(job[2]), hex.parseHex(job.length > 3 ? job[3] : "")));
            } else {
                throw new IllegalArgumentException("unknown job: " + line);
            }
        }
    }

    private static String risks(String output, int records, byte[] answer) {
        try {
            StringBuilder text = new StringBuilder();
            for (float risk : InferMessages.risks(answer, output, records)) text.append(text.length() == 0 ? "" : ",").append(risk);
            return text.toString();
        } catch (InferMessages.BadAnswer e) {
            return "BadAnswer: " + e.getMessage();
        }
    }
}
