package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertPlainEquals;
import static dev.lanehost.callgate.value.PlainValues.hex;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Bignums (RFC 8949 section 3.4.3): every spelling decodes to its value, and encoding writes the preferred one. */
class PlainCodecBignumTest {

    private final PlainCodec codec = new PlainCodec();

    /** Every head spelling of "tag 3 over an empty byte string" and of "tag 2 over an empty byte string". */
    private static final List<String> NEGATIVE_EMPTY_BIGNUMS = List.of(
            "c340",                          // the preferred spelling
            "d80340",                        // the tag number in a 1-byte argument
            "d9000340",                      // ... 2 bytes
            "da0000000340",                  // ... 4 bytes
            "db000000000000000340",          // ... 8 bytes
            "c35800",                        // the byte-string length in a 1-byte argument
            "c3590000",                      // ... 2 bytes
            "c35a00000000",                  // ... 4 bytes
            "c35b0000000000000000",          // ... 8 bytes
            "db00000000000000035b0000000000000000"); // both heads at full width

    private static String positive(String negativeSpelling) {
        // The tag number is the last byte of the tag head; 03 -> 02 in the same position.
        int tagEnd = switch (negativeSpelling.substring(0, 2)) {
            case "c3" -> 0;
            case "d8" -> 2;
            case "d9" -> 4;
            case "da" -> 8;
            default -> 16;
        };
        String tag = negativeSpelling.substring(0, tagEnd + 2);
        return tag.substring(0, tag.length() - 1) + "2" + negativeSpelling.substring(tagEnd + 2);
    }

    @Test
    void aNegativeBignumOverAnEmptyByteStringIsMinusOneWhateverItsHeads() throws PlainValueException {
        for (String spelling : NEGATIVE_EMPTY_BIGNUMS) {
            assertEquals(-1L, codec.decode(hex(spelling)), spelling);
        }
    }

    @Test
    void aPositiveBignumOverAnEmptyByteStringIsZeroWhateverItsHeads() throws PlainValueException {
        for (String spelling : NEGATIVE_EMPTY_BIGNUMS) {
            String positive = positive(spelling);
            assertEquals(0L, codec.decode(hex(positive)), positive);
        }
    }

    @Test
    void anEmptyNegativeBignumIsMinusOneInsideListsAndMaps() throws PlainValueException {
        for (String spelling : NEGATIVE_EMPTY_BIGNUMS) {
            assertEquals(List.of(-1L), codec.decode(hex("81" + spelling)), "[" + spelling + "]");
            assertEquals(List.of(-1L, 0L, -1L), codec.decode(hex("83" + spelling + positive(spelling) + spelling)), spelling);
            assertEquals(Map.of("a", -1L), codec.decode(hex("a16161" + spelling)), "{a: " + spelling + "}");
            assertEquals(List.of(List.of(0L, -1L)), codec.decode(hex("9f82" + positive(spelling) + spelling + "ff")), spelling);
        }
        assertEquals(List.of(-1L), codec.decode(hex("81d80340")));
    }

    @Test
    void aNegativeBignumOverZeroBytesIsMinusOne() throws PlainValueException {
        // Not empty, but a magnitude of 0 all the same: -1 - 0.
        assertEquals(-1L, codec.decode(hex("c34100")));
        assertEquals(-1L, codec.decode(hex("d900035a000000020000")));
    }
}
