package dev.lanehost.samples.gst;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.List;
import java.util.zip.CRC32;

/**
 * The GStreamer sample's per-frame work, done in place on the buffer the element mapped: blends every pixel of an
 * RGBx frame toward an overlay colour, then folds the result into a CRC-32 of every frame so far. Touched only in
 * the turns of its actor, which run on GStreamer's streaming thread inside the element's drive of the lane.
 *
 * <p>The blend, per red, green and blue byte {@code c} (the fourth byte, x, is left alone), with the overlay's
 * channel {@code k} and strength {@code s} in 0..255: {@code (c * (255 - s) + k * s + 127) / 255}.
 */
final class FrameOverlay {
    private static final int BYTES_PER_PIXEL = 4;

    private int red;
    private int green;
    private int blue;
    private int strength;
    private long frames;
    private long sequenceErrors;
    private final CRC32 crc = new CRC32();

    /** Takes the element's properties: {@code [0xRRGGBB, strength]}. */
    void configure(Object args) {
        List<?> values = numbers(args, 2, "overlay takes [color, strength]");
        long color = (Long) values.get(0);
        long newStrength = (Long) values.get(1);
        if (color < 0 || color > 0xFFFFFF || newStrength < 0 || newStrength > 255) {
            throw new IllegalArgumentException("overlay takes a 0xRRGGBB colour and a strength 0..255, got " + values);
        }
        red = (int) (color >>> 16) & 0xFF;
        green = (int) (color >>> 8) & 0xFF;
        blue = (int) color & 0xFF;
        strength = (int) newStrength;
    }

    /**
     * Processes one frame, {@code [address, length, width, height, stride, sequence]}: the mapped buffer is read
     * and written where GStreamer put it, no copy. {@code sequence} is the element's count of frames handed over
     * before this one, so any frame lost or repeated between C and here shows as a mismatch.
     *
     * @return the frames processed so far, this one included
     */
    long process(Object args) {
        List<?> values = numbers(args, 6, "frame takes [address, length, width, height, stride, sequence]");
        long address = (Long) values.get(0);
        long length = (Long) values.get(1);
        int width = Math.toIntExact((Long) values.get(2));
        int height = Math.toIntExact((Long) values.get(3));
        int stride = Math.toIntExact((Long) values.get(4));
        long sequence = (Long) values.get(5);
        if (width <= 0 || height <= 0 || stride < width * BYTES_PER_PIXEL || (long) stride * height > length) {
            throw new IllegalArgumentException("a frame of " + width + "x" + height + ", stride " + stride
                    + " does not fit " + length + " bytes");
        }
        // The element's mapping outlives this turn: the call returns before GStreamer unmaps the frame.
        MemorySegment frame = MemorySegment.ofAddress(address).reinterpret(length);
        blend(frame, width, height, stride);
        crc.update(frame.asByteBuffer());
        if (sequence != frames) {
            sequenceErrors++;
        }
        return ++frames;
    }

    /** {@code [frames, crc32, sequenceErrors]}. */
    List<Long> stats() {
        return List.of(frames, crc.getValue(), sequenceErrors);
    }

    private void blend(MemorySegment frame, int width, int height, int stride) {
        int keep = 255 - strength;
        int redAdd = red * strength + 127;
        int greenAdd = green * strength + 127;
        int blueAdd = blue * strength + 127;
        for (int y = 0; y < height; y++) {
            long row = (long) y * stride;
            for (int x = 0; x < width; x++) {
                long pixel = row + (long) x * BYTES_PER_PIXEL;
                put(frame, pixel, keep, redAdd);
                put(frame, pixel + 1, keep, greenAdd);
                put(frame, pixel + 2, keep, blueAdd);
            }
        }
    }

    private static void put(MemorySegment frame, long offset, int keep, int add) {
        int channel = frame.get(ValueLayout.JAVA_BYTE, offset) & 0xFF;
        frame.set(ValueLayout.JAVA_BYTE, offset, (byte) ((channel * keep + add) / 255));
    }

    private static List<?> numbers(Object args, int count, String shape) {
        if (!(args instanceof List<?> values) || values.size() != count
                || !values.stream().allMatch(Long.class::isInstance)) {
            throw new IllegalArgumentException(shape + ", got " + (args == null ? "null" : args.getClass().getName()));
        }
        return values;
    }
}
