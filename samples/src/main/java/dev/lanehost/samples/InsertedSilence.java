package dev.lanehost.samples;

import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where the duplex effect put silence of its own into the playback stream (to keep its lead), for the duplex check:
 * each insertion is one 16-byte record, the playback-stream frame it starts at and how many frames, through a small
 * SPSC ring from the effect's turns (one writer) to the check (one reader). The effect records an insertion before
 * it writes the silence, so by the time the callback has played it, the check can read the record. Neither side
 * allocates.
 */
public final class InsertedSilence implements AutoCloseable {
    private static final int RECORD_BYTES = 16;

    private final SpscByteRing ring = SpscByteRing.allocate(64 * 1024);
    private final ByteBuffer out = ByteBuffer.allocateDirect(RECORD_BYTES).order(ByteOrder.nativeOrder());
    private final ByteBuffer in = ByteBuffer.allocateDirect(RECORD_BYTES).order(ByteOrder.nativeOrder());
    private volatile long lost;
    // The reader's current insertion: [start, end) in playback-stream frames.
    private long start;
    private long end;

    /** The writer: silence of {@code frames} frames starts at playback-stream frame {@code position}. */
    void record(long position, long frames) {
        if (ring.writable() < RECORD_BYTES) {
            lost++; // one writer: a plain increment, published through the volatile
            return;
        }
        out.clear();
        out.putLong(position).putLong(frames).flip();
        ring.write(out);
    }

    /** The reader: whether playback-stream frame {@code position} is silence the effect inserted. Positions only grow. */
    boolean isInserted(long position) {
        while (position >= end && ring.readable() >= RECORD_BYTES) {
            in.clear();
            ring.read(in);
            long nextStart = in.getLong(0);
            if (nextStart > position) {
                // Not yet: keep it for later (a record is read once, so hold it as the current one).
                start = nextStart;
                end = nextStart + in.getLong(8);
                return false;
            }
            start = nextStart;
            end = nextStart + in.getLong(8);
        }
        return position >= start && position < end;
    }

    /** Records that did not fit (the check cannot be trusted if any). */
    public long lost() {
        return lost;
    }

    @Override
    public void close() {
        ring.close();
    }
}
