package dev.lanehost.samples.lv2;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * One record of the controls ring: what the plugin's {@code run()} writes when a control port changed, and the
 * frame it applies from. The C side is {@code lv2_biquad_record} in {@code lanehost_biquad.c}; its
 * {@code _Static_assert}s pin the same offsets.
 *
 * <pre>
 *   0                   8         12        16        20        24                  32
 *   +-------------------+---------+---------+---------+---------+-------------------+
 *   | position (u64)    | cutoff  | q (f32) | hold    | unused  | unused (u64)      |
 *   |                   | (f32)   |         | (u32)   |         |                   |
 *   +-------------------+---------+---------+---------+---------+-------------------+
 * </pre>
 *
 * {@code position} counts the frames the plugin wrote into the capture ring since its activation: the record takes
 * effect before that frame is processed. Native byte order: writer and reader are one process.
 */
final class ControlRecord {
    static final int POSITION_OFFSET = 0;
    static final int CUTOFF_OFFSET = POSITION_OFFSET + Long.BYTES;
    static final int Q_OFFSET = CUTOFF_OFFSET + Float.BYTES;
    static final int HOLD_OFFSET = Q_OFFSET + Float.BYTES;
    /** Two words to spare, so a record is a power of two and never straddles the ring's end unevenly. */
    static final int LENGTH = 32;

    long position;
    float cutoff;
    float q;
    boolean hold;

    /** Reads the record at the start of {@code memory} (native order, 8-byte aligned). */
    void readFrom(MemorySegment memory) {
        position = memory.get(ValueLayout.JAVA_LONG, POSITION_OFFSET);
        cutoff = memory.get(ValueLayout.JAVA_FLOAT, CUTOFF_OFFSET);
        q = memory.get(ValueLayout.JAVA_FLOAT, Q_OFFSET);
        hold = memory.get(ValueLayout.JAVA_INT, HOLD_OFFSET) != 0;
    }
}
