package dev.lanehost.callgate.value;

import static dev.lanehost.callgate.value.PlainValues.assertFails;
import static dev.lanehost.callgate.value.PlainValues.assertPlainEquals;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Encoding into and decoding from a caller's region of a byte array or a native segment. */
class PlainCodecBufferTest {

    private static final byte GUARD = (byte) 0x5a;
    private static final int MARGIN = 16;

    private final PlainCodec codec = new PlainCodec();

    /** Larger than Jackson's output buffer, so the region fills up during a flush in the middle of the value. */
    private static final Object LARGE = Map.of("blob", new byte[50_000], "text", "x".repeat(30_000));
    private static final Object SMALL = List.of(1, "two", 3.0);

    private static byte[] guarded(int regionLength) {
        byte[] buffer = new byte[MARGIN + regionLength + MARGIN];
        Arrays.fill(buffer, GUARD);
        return buffer;
    }

    private static void assertGuardsIntact(byte[] buffer, int regionLength) {
        for (int i = 0; i < MARGIN; i++) {
            assertEquals(GUARD, buffer[i], "byte " + i + " before the region");
            assertEquals(GUARD, buffer[MARGIN + regionLength + i], "byte " + i + " after the region");
        }
    }

    @Test
    void aValueThatFitsExactlyIsWrittenAndItsLengthReturned() throws PlainValueException {
        for (Object value : List.of(SMALL, LARGE)) {
            byte[] expected = codec.encode(value);
            byte[] buffer = guarded(expected.length);
            assertEquals(expected.length, codec.encode(value, buffer, MARGIN, expected.length));
            assertArrayEquals(expected, Arrays.copyOfRange(buffer, MARGIN, MARGIN + expected.length));
            assertGuardsIntact(buffer, expected.length);
            assertPlainEquals(PlainValues.normalised(value), codec.decode(buffer, MARGIN, expected.length));
        }
    }

    @Test
    void aValueOneByteTooLargeIsOutOfMemoryAndNothingIsWrittenPastTheRegion() throws PlainValueException {
        for (Object value : List.of(SMALL, LARGE)) {
            int needed = codec.encode(value).length;
            for (int regionLength : new int[] {0, 1, needed / 2, needed - 1}) {
                byte[] buffer = guarded(regionLength);
                PlainValueException failure = assertFails(PlainValueFailure.OUT_OF_MEMORY,
                        () -> codec.encode(value, buffer, MARGIN, regionLength));
                assertTrue(failure.getMessage().contains(regionLength + "-byte buffer"), failure.getMessage());
                assertGuardsIntact(buffer, regionLength);
            }
        }
    }

    @Test
    void aSegmentRegionIsWrittenAndNothingPastItsEnd() throws PlainValueException {
        byte[] expected = codec.encode(LARGE);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(MARGIN + expected.length + MARGIN);
            segment.fill(GUARD);
            assertEquals(expected.length, codec.encode(LARGE, segment, MARGIN, expected.length));
            assertArrayEquals(expected, segment.asSlice(MARGIN, expected.length).toArray(ValueLayout.JAVA_BYTE));
            assertPlainEquals(PlainValues.normalised(LARGE), codec.decode(segment, MARGIN, expected.length));

            segment.fill(GUARD);
            assertFails(PlainValueFailure.OUT_OF_MEMORY, () -> codec.encode(LARGE, segment, MARGIN, expected.length - 1));
            byte[] after = segment.asSlice(MARGIN + expected.length - 1).toArray(ValueLayout.JAVA_BYTE);
            for (byte b : after) {
                assertEquals(GUARD, b);
            }
        }
    }

    @Test
    void badArrayRegionsAreInvalidArguments() {
        byte[] buffer = new byte[8];
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, (byte[]) null, 0, 0));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, buffer, -1, 2));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, buffer, 0, -1));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, buffer, 4, 5));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, buffer, Integer.MAX_VALUE, 2));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(null));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode((byte[]) null, 0, 0));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(buffer, -1, 1));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(buffer, 8, 1));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(buffer, 1, Integer.MAX_VALUE));
    }

    @Test
    void badSegmentRegionsAreInvalidArguments() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(8);
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, (MemorySegment) null, 0, 1));
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, segment, -1, 1));
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, segment, 4, 5));
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, segment, 0, Long.MAX_VALUE));
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, segment.asReadOnly(), 0, 8));
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode((MemorySegment) null, 0, 1));
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(segment, 9, 0));
            assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(MemorySegment.NULL, 0, 1),
                    "a C pointer not yet given its length is a zero-length segment");
        }
    }

    @Test
    void aClosedSegmentIsAnInvalidArgument() {
        MemorySegment segment;
        try (Arena arena = Arena.ofConfined()) {
            segment = arena.allocate(8);
        }
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.encode(1, segment, 0, 8));
        assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(segment, 0, 1));
    }

    @Test
    void aSegmentConfinedToAnotherThreadIsAnInvalidArgument() throws InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(8);
            segment.set(ValueLayout.JAVA_BYTE, 0, (byte) 0x01);
            AtomicReference<Object> outcome = new AtomicReference<>();
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    outcome.set(codec.decode(segment, 0, 1));
                } catch (PlainValueException e) {
                    outcome.set(e.failure());
                }
            });
            other.join();
            assertEquals(PlainValueFailure.INVALID_ARGUMENT, outcome.get());
        }
    }

    @Test
    void decodingASegmentCountsOffsetsFromTheRegion() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment segment = arena.allocate(16);
            segment.fill((byte) 0x81); // arrays of one, nested: the third, at byte 2 of the region, has no room for its item
            PlainValueException failure = assertFails(PlainValueFailure.INVALID_ARGUMENT, () -> codec.decode(segment, 10, 3));
            assertTrue(failure.getMessage().contains("at byte 2:"), failure.getMessage());
        }
    }
}
