package dev.lanehost.callgate.value;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A plain value as the text {@code cbor_interop} prints for what libcbor decoded (the grammar is at the top
 * of {@code src/test/c/cbor_interop.c}): the value, not its spelling. Integers in decimal whatever their
 * Java type, floats as the bits of the double that holds them ({@code f:nan} for any NaN), text as its UTF-8
 * bytes with printable ASCII kept, byte strings in hex, lists and maps in order.
 */
final class DiagnosticText {

    private DiagnosticText() {
    }

    static String of(Object value) {
        StringBuilder text = new StringBuilder();
        append(text, value);
        return text.toString();
    }

    private static void append(StringBuilder text, Object value) {
        switch (value) {
            case null -> text.append("null");
            case Boolean b -> text.append(b);
            case Byte b -> text.append((long) b);
            case Short s -> text.append((long) s);
            case Integer i -> text.append((long) i);
            case Long l -> text.append(l);
            case BigInteger big -> text.append(big);
            case Float f -> appendFloat(text, (double) f); // widening is exact, as half and single are in C
            case Double d -> appendFloat(text, d);
            case String s -> appendText(text, s);
            case byte[] bytes -> text.append("h'").append(PlainValues.hex(bytes)).append('\'');
            case List<?> list -> {
                text.append('[');
                for (Iterator<?> i = list.iterator(); i.hasNext(); ) {
                    append(text, i.next());
                    text.append(i.hasNext() ? "," : "");
                }
                text.append(']');
            }
            case Map<?, ?> map -> {
                text.append('{');
                for (Iterator<? extends Map.Entry<?, ?>> i = map.entrySet().iterator(); i.hasNext(); ) {
                    Map.Entry<?, ?> entry = i.next();
                    append(text, entry.getKey());
                    text.append(':');
                    append(text, entry.getValue());
                    text.append(i.hasNext() ? "," : "");
                }
                text.append('}');
            }
            default -> throw new IllegalArgumentException("not a plain value in these tests: " + value.getClass().getName());
        }
    }

    private static void appendFloat(StringBuilder text, double value) {
        if (Double.isNaN(value)) {
            text.append("f:nan");
        } else {
            text.append("f:").append(String.format("%016x", Double.doubleToRawLongBits(value)));
        }
    }

    private static void appendText(StringBuilder text, String value) {
        text.append('"');
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
                text.append((char) c);
            } else {
                text.append(String.format("\\x%02x", c));
            }
        }
        text.append('"');
    }
}
