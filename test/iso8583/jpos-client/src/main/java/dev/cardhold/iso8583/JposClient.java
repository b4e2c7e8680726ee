package dev.cardhold.iso8583;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.jpos.iso.ISOException;
import org.jpos.iso.ISOMsg;
import org.jpos.iso.ISOUtil;
import org.jpos.iso.channel.NACChannel;
import org.jpos.iso.packager.ISO87BPackager;

/**
 * A card network's side of an ISO 8583 link, packed and framed by jPOS alone: ISO87BPackager, NACChannel (2-byte
 * big-endian length, no header). One connection; messages go out as they come in on stdin and answers are read by
 * their own thread, so many are under way at once and answers are printed in the order they arrive.
 *
 * stdin, one JSON object a line: {"mti": "0100", "fields": {"2": "…", "52": "hex of the bytes"}}.
 * stdout, one JSON object a line: {"ready": true} once connected; each answer {"mti": …, "fields": {…}} (binary fields
 * as hex); {"closed": "…"} when the connection ends.
 */
public final class JposClient {
  /** Fields ISO87BPackager packs as bytes (IFB_BINARY). */
  private static final Set<Integer> BINARY = Set.of(52, 64, 65, 96, 128);

  private JposClient() {}

  public static void main(String[] args) throws Exception {
    ISO87BPackager packager = new ISO87BPackager();
    NACChannel channel = new NACChannel(args[0], Integer.parseInt(args[1]), packager, null);
    channel.connect();
    Gson gson = new Gson();
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    Thread answers = new Thread(() -> {
      try {
        for (;;) {
          ISOMsg answer = channel.receive();
          synchronized (out) {
            out.println(gson.toJson(asJson(answer)));
          }
        }
      } catch (Exception e) {
        synchronized (out) {
          out.println(gson.toJson(Map.of("closed", e.getClass().getSimpleName())));
        }
      }
    });
    answers.setDaemon(true);
    answers.start();
    out.println(gson.toJson(Map.of("ready", true)));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (!line.isBlank()) channel.send(message(packager, JsonParser.parseString(line).getAsJsonObject()));
    }
    channel.disconnect();
  }

  private static ISOMsg message(ISO87BPackager packager, JsonObject request) throws ISOException {
    ISOMsg message = new ISOMsg();
    message.setPackager(packager);
    message.setMTI(request.get("mti").getAsString());
    for (Map.Entry<String, JsonElement> field : request.getAsJsonObject("fields").entrySet()) {
      int number = Integer.parseInt(field.getKey());
      String value = field.getValue().getAsString();
      if (BINARY.contains(number)) message.set(number, ISOUtil.hex2byte(value));
      else message.set(number, value);
    }
    return message;
  }

  private static Map<String, Object> asJson(ISOMsg message) throws ISOException {
    Map<String, String> fields = new LinkedHashMap<>();
    for (int number = 2; number <= 128; number++) {
      if (!message.hasField(number)) continue;
      Object value = message.getValue(number);
      fields.put(String.valueOf(number), value instanceof byte[] ? ISOUtil.hexString((byte[]) value) : value.toString());
    }
    Map<String, Object> json = new LinkedHashMap<>();
    json.put("mti", message.getMTI());
    json.put("fields", fields);
    return json;
  }
}
