package dev.lanehost.callgate.value;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Reading CBOR in place and writing it item by item: the same bytes as the codec, and errors that name the byte. */
class CborInOutTest {
    private static final PlainCodec CODEC = new PlainCodec();

    private static byte[] hex(String hex) {
        return HexFormat.of().parseHex(hex.replace(" ", ""));
    }

    private static byte[] written(CborOut out) {
        return Arrays.copyOf(out.array(), out.length());
    }

    @Test
    void writingItemByItemGivesTheCodecsBytes() throws Exception {
        Map<String, Object> value = new LinkedHashMap<>();
        value.put("frame", 7L);
        value.put("level", 0.25);
        value.put("gain", 1.5f);
        value.put("name", "só 🎵");
        value.put("raw", new byte[] {1, 2, 3});
        value.put("flags", List.of(true, false));
        value.put("none", null);
        value.put("negative", -1_000_000_000_000L);
        CborOut out = new CborOut();
        out.writeMap(8);
        out.writeText("frame").writeLong(7);
        out.writeText("level").writeDouble(0.25);
        out.writeText("gain").writeFloat(1.5f);
        out.writeText(new StringBuilder("name")).writeText("só 🎵");
        out.writeText("raw").writeBytes(new byte[] {0, 1, 2, 3, 4}, 1, 3);
        out.writeText("flags").writeArray(2).writeBoolean(true).writeBoolean(false);
        out.writeText("none").writeNull();
        out.writeText("negative").writeLong(-1_000_000_000_000L);
        assertArrayEquals(CODEC.encode(value), written(out));
    }

    @Test
    void aWritePastTheLimitIsRefusedWholeAndWritesNothing() throws Exception {
        CborOut out = new CborOut().limit(6);
        out.writeLong(1_000); // 3 bytes
        PlainValueException refused = assertThrows(PlainValueException.class, () -> out.writeText("abcd")); // 5 bytes
        assertEquals(PlainValueFailure.OUT_OF_MEMORY, refused.failure());
        assertEquals(3, out.length(), "nothing of the refused text was written");
        out.writeText("ab");
        assertArrayEquals(hex("1903e8 626162"), written(out));
        assertEquals(0, out.clear().length());
        out.writeText("abcdefgh"); // clear lifts the limit
    }

    @Test
    void anUnpairedSurrogateIsRefused() {
        CborOut out = new CborOut();
        PlainValueException refused = assertThrows(PlainValueException.class, () -> out.writeText("a\ud800b"));
        assertEquals(PlainValueFailure.NOT_SERIALIZABLE, refused.failure());
        assertTrue(refused.getMessage().contains("index 1"), refused.getMessage());
        assertEquals(0, out.length());
    }

    @Test
    void readingInPlaceSeesWhatTheCodecWrote() throws Exception {
        byte[] bytes = CODEC.encode(Map.of("gain", 0.5, "voice", 3L, "name", "só", "raw", new byte[] {9, 8}, "on", true));
        CborIn in = new CborIn().wrap(bytes, 0, bytes.length);
        assertEquals(CborType.MAP, in.next());
        int entries = in.readMap();
        assertEquals(5, entries);
        double gain = 0;
        int voice = 0;
        boolean on = false;
        String name = null;
        byte[] raw = new byte[4];
        int rawLength = 0;
        for (int i = 0; i < entries; i++) {
            if (in.nextTextIs("gain")) {
                in.skip();
                gain = in.readDouble();
            } else if (in.nextTextIs("voice")) {
                in.skip();
                voice = in.readInt();
            } else if (in.nextTextIs("name")) {
                in.skip();
                assertTrue(in.nextTextIs("só"), "compared as UTF-8");
                assertFalse(in.nextTextIs("so"));
                assertFalse(in.nextTextIs("só!"));
                name = in.readText();
            } else if (in.nextTextIs("raw")) {
                in.skip();
                assertEquals(2, in.nextStringLength());
                rawLength = in.readBytes(raw, 1);
            } else {
                in.skip();
                on = in.readBoolean();
            }
        }
        assertEquals(0.5, gain);
        assertEquals(3, voice);
        assertEquals("só", name);
        assertTrue(on);
        assertEquals(2, rawLength);
        assertArrayEquals(new byte[] {0, 9, 8, 0}, raw);
        assertEquals(CborType.END, in.next());
        assertFalse(in.hasRemaining());
        assertEquals(bytes.length, in.position());
    }

    @Test
    void indefiniteLengthContainersAndStringsAreReadToTheirBreak() throws Exception {
        // [_ "ab" (_ "c", "d"), h'01', [_ 1, 2]] with an indefinite text of two chunks
        byte[] bytes = hex("9f 62 6162 7f 6163 6164 ff 41 01 9f 01 02 ff ff");
        CborIn in = new CborIn().wrap(bytes, 0, bytes.length);
        assertEquals(CborIn.INDEFINITE, in.readArray());
        assertEquals("ab", in.readText());
        assertEquals(2, in.nextStringLength());
        assertTrue(in.nextTextIs("cd"));
        assertEquals("cd", in.readText());
        in.skip(); // h'01'
        assertEquals(CborIn.INDEFINITE, in.readArray());
        long sum = 0;
        while (!in.readBreak()) {
            sum += in.readLong();
        }
        assertEquals(3, sum);
        assertTrue(in.readBreak());
        assertEquals(CborType.END, in.next());
    }

    @Test
    void aReadOfAnotherTypeNamesTheByteAndMovesNothing() throws Exception {
        byte[] bytes = CODEC.encode(List.of(1L, "x"));
        CborIn in = new CborIn().wrap(bytes, 0, bytes.length);
        assertEquals(2, in.readArray());
        assertEquals(1, in.readLong());
        PlainValueException wrong = assertThrows(PlainValueException.class, in::readDouble);
        assertEquals(PlainValueFailure.INVALID_ARGUMENT, wrong.failure());
        assertEquals("CBOR at byte 2: expected a number, found a text string", wrong.getMessage());
        assertEquals(2, in.position(), "the failed read moved nothing");
        assertEquals("x", in.readText());
        PlainValueException end = assertThrows(PlainValueException.class, in::readLong);
        assertTrue(end.getMessage().contains("no item is left"), end.getMessage());
    }

    @Test
    void rangesAndTruncationAreRefused() throws Exception {
        CborIn in = new CborIn();
        byte[] big = CODEC.encode(1L << 40);
        PlainValueException tooBig = assertThrows(PlainValueException.class, () -> in.wrap(big, 0, big.length).readInt());
        assertTrue(tooBig.getMessage().contains("does not fit in 32 bits"), tooBig.getMessage());
        assertEquals(1L << 40, in.readLong(), "the refused readInt moved nothing");
        byte[] unsigned64 = hex("1b ffffffffffffffff");
        assertThrows(PlainValueException.class, () -> in.wrap(unsigned64, 0, unsigned64.length).readLong());
        byte[] truncated = hex("1a 0001"); // a 4-byte argument with 2 bytes
        PlainValueException cut = assertThrows(PlainValueException.class, () -> in.wrap(truncated, 0, truncated.length).readLong());
        assertTrue(cut.getMessage().contains("runs past the region's end"), cut.getMessage());
        byte[] longText = hex("65 6162"); // 5 bytes announced, 2 there
        assertThrows(PlainValueException.class, () -> in.wrap(longText, 0, longText.length).readText());
        assertThrows(PlainValueException.class, () -> in.nextTextIs("ab"), "a peek at a text past the region");
        byte[] hugeArray = hex("9a 7fffffff 01");
        assertThrows(PlainValueException.class, () -> in.wrap(hugeArray, 0, hugeArray.length).readArray());
        byte[] small = new byte[1];
        byte[] bytes = CODEC.encode(new byte[] {1, 2});
        PlainValueException noRoom = assertThrows(PlainValueException.class, () -> in.wrap(bytes, 0, bytes.length).readBytes(small, 0));
        assertTrue(noRoom.getMessage().contains("does not fit in the target"), noRoom.getMessage());
        assertEquals(0, in.position());
    }

    @Test
    void integersReadAsNumbersAndFloatsOfEveryWidth() throws Exception {
        byte[] bytes = hex("84 f93c00 fa3fc00000 fb4002000000000000 20"); // [1.0 half, 1.5 single, 2.25 double, -1]
        CborIn in = new CborIn().wrap(bytes, 0, bytes.length);
        assertEquals(4, in.readArray());
        assertEquals(1.0, in.readDouble());
        assertEquals(1.5, in.readDouble());
        assertEquals(2.25, in.readDouble());
        assertEquals(-1.0, in.readDouble());
    }

    @Test
    void nullIsReadOnlyWhenItComes() throws Exception {
        byte[] bytes = hex("82 f6 01");
        CborIn in = new CborIn().wrap(bytes, 0, bytes.length);
        assertEquals(2, in.readArray());
        assertTrue(in.readNull());
        assertFalse(in.readNull());
        assertEquals(1, in.readLong());
    }
}
