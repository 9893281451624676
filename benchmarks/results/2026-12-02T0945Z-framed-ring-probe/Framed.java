import dev.lanehost.ring.SpscByteRing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.agrona.BufferUtil;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

/**
 * Probe, not product: would a ring whose consumer polls record headers in the data (a framed ring) beat Agrona at
 * 512 B in far placement, where our byte ring's consumer polls the producer's position word?
 *
 * Framed layout (1 MiB of data, then the consumer position on a pair of lines of its own): records of an 8-byte
 * header (int length of the whole record, 8-aligned; int type: 1 data, -1 padding) and the payload. The producer
 * keeps the invariant "the header at its position reads 0": a write copies the payload, stores 0 at the next
 * record's header, then release-stores its own header. So the consumer never zeroes what it read (Agrona's
 * consumer does) and never reads the producer's position (ours does): it acquires the header at its position; 0
 * means empty. The producer's position is private to it; it reads the consumer's position only when its cached
 * copy says there is no room.
 *
 * Modes, in alternate 100 ms windows, one producer thread started per window (512 B writes), the main thread
 * consuming: 0 ours (SpscByteRing), 1 Agrona (OneToOneRingBuffer, read(handler, 64)), 2 framed, 3 slots
 * (fixed slots with sequence stamps, SlotRing).
 */
public class Framed {
    static final int CHUNK = 512;
    static final long CAP = 1 << 20;
    static volatile boolean running;

    static final class FramedRing {
        static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
        final MemorySegment data;
        final MemorySegment consumerLine;
        // producer private
        long tail, headCache;
        // consumer private
        long head;

        FramedRing(Arena arena) {
            MemorySegment all = arena.allocate(CAP + 256, 128);
            data = all.asSlice(0, CAP);
            consumerLine = all.asSlice(CAP + 128, 128);
        }

        boolean write(byte[] src, int len) {
            long rec = (8 + len + 7) & ~7L;
            long off = tail & (CAP - 1);
            long toEnd = CAP - off;
            long need = rec < toEnd ? rec + 8 : toEnd + rec + 8; // the record, the next zero header, any padding
            if (CAP - (tail - headCache) < need) {
                headCache = (long) LONG.getAcquire(consumerLine, 0L);
                if (CAP - (tail - headCache) < need) {
                    return false;
                }
            }
            if (rec >= toEnd) { // pad to the end; the record starts the next lap
                data.set(ValueLayout.JAVA_LONG, 0, 0L);
                LONG.setRelease(data, off, (-1L << 32) | toEnd);
                tail += toEnd;
                off = 0;
            }
            MemorySegment.copy(src, 0, data, ValueLayout.JAVA_BYTE, off + 8, len);
            long next = (off + rec) & (CAP - 1);
            data.set(ValueLayout.JAVA_LONG, next, 0L);
            LONG.setRelease(data, off, (1L << 32) | rec);
            tail += rec;
            return true;
        }

        int read(byte[] dst) {
            for (;;) {
                long off = head & (CAP - 1);
                long h = (long) LONG.getAcquire(data, off);
                if (h == 0) {
                    return 0;
                }
                int rec = (int) h;
                head += rec;
                if ((int) (h >> 32) < 0) {
                    continue;
                }
                int len = rec - 8; // the probe's records are 8 + 512 bytes: no alignment slack to subtract
                MemorySegment.copy(data, ValueLayout.JAVA_BYTE, off + 8, dst, 0, len);
                LONG.setRelease(consumerLine, 0L, head);
                return len;
            }
        }
    }


    /** Fixed slots of 8 + 512 bytes: the header (sequence + 1 in the high half, length in the low) never moves, so a
     *  stamp tells this lap's header from the last one's and nobody zeroes anything. */
    static final class SlotRing {
        static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
        static final long SLOT = 8 + CHUNK;
        static final long SLOTS = CAP / SLOT;
        final MemorySegment data;
        final MemorySegment consumerLine;
        long tail, headCache, head;

        SlotRing(Arena arena) {
            MemorySegment all = arena.allocate(CAP + 256, 128);
            data = all.asSlice(0, CAP);
            consumerLine = all.asSlice(CAP + 128, 128);
        }

        boolean write(byte[] src, int len) {
            if (tail - headCache >= SLOTS) {
                headCache = (long) LONG.getAcquire(consumerLine, 0L);
                if (tail - headCache >= SLOTS) {
                    return false;
                }
            }
            long off = (tail % SLOTS) * SLOT;
            MemorySegment.copy(src, 0, data, ValueLayout.JAVA_BYTE, off + 8, len);
            LONG.setRelease(data, off, ((tail + 1) << 16) | len);
            tail++;
            return true;
        }

        int read(byte[] dst) {
            long off = (head % SLOTS) * SLOT;
            long h = (long) LONG.getAcquire(data, off);
            if ((h >>> 16) != head + 1) {
                return 0;
            }
            int len = (int) (h & 0xFFFF);
            MemorySegment.copy(data, ValueLayout.JAVA_BYTE, off + 8, dst, 0, len);
            head++;
            LONG.setRelease(consumerLine, 0L, head);
            return len;
        }
    }

    public static void main(String[] args) throws Exception {
        int windows = Integer.parseInt(args.length > 0 ? args[0] : "40");
        byte[] src = new byte[CHUNK];
        for (int i = 0; i < CHUNK; i++) src[i] = (byte) (i * 31 + 7);
        byte[] dst = new byte[CHUNK];
        try (Arena arena = Arena.ofShared(); SpscByteRing ours = SpscByteRing.allocate(CAP)) {
            FramedRing framed = new FramedRing(arena);
            SlotRing slots = new SlotRing(arena);
            OneToOneRingBuffer agrona = new OneToOneRingBuffer(new UnsafeBuffer(
                    BufferUtil.allocateDirectAligned((int) CAP + RingBufferDescriptor.TRAILER_LENGTH, 128)));
            UnsafeBuffer agronaSrc = new UnsafeBuffer(src);
            long[] got = new long[1];
            MessageHandler handler = (type, buffer, index, length) -> {
                buffer.getBytes(index, dst, 0, length);
                got[0] += length;
            };
            Runnable[] producers = {
                () -> { while (running) { int done = 0; while (done < CHUNK) { int n = ours.write(src, done, CHUNK - done); if (n == 0) Thread.onSpinWait(); done += n; } } },
                () -> { while (running) { while (!agrona.write(1, agronaSrc, 0, CHUNK) && running) Thread.onSpinWait(); } },
                () -> { while (running) { while (!framed.write(src, CHUNK) && running) Thread.onSpinWait(); } },
                () -> { while (running) { while (!slots.write(src, CHUNK) && running) Thread.onSpinWait(); } },
            };
            String[] names = {"ours", "agrona", "framed", "slots"};
            for (int w = 0; w < windows; w++) {
                for (int mode = 0; mode < 4; mode++) {
                    running = true;
                    Thread p = new Thread(producers[mode]);
                    p.start();
                    long bytes = 0;
                    long start = System.nanoTime(), end = start + 100_000_000L;
                    while (System.nanoTime() < end) {
                        for (int i = 0; i < 256; i++) {
                            int n;
                            if (mode == 0) n = ours.read(dst, 0, CHUNK);
                            else if (mode == 1) { got[0] = 0; agrona.read(handler, 64); n = (int) got[0]; }
                            else if (mode == 2) n = framed.read(dst);
                            else n = slots.read(dst);
                            if (n == 0) { Thread.onSpinWait(); continue; }
                            if (dst[CHUNK - 1] != src[CHUNK - 1] || dst[0] != src[0]) throw new AssertionError(names[mode] + ": wrong bytes");
                            bytes += n;
                        }
                    }
                    long nanos = System.nanoTime() - start;
                    running = false;
                    // drain while the producer finishes its last message, so the next window of this mode starts empty
                    for (boolean alive = true; ; ) {
                        int n;
                        if (mode == 0) n = ours.read(dst, 0, CHUNK);
                        else if (mode == 1) { got[0] = 0; agrona.read(handler, 64); n = (int) got[0]; }
                        else if (mode == 2) n = framed.read(dst);
                        else n = slots.read(dst);
                        if (n == 0) { if (!alive) break; alive = p.isAlive(); }
                    }
                    p.join();
                    if (w >= 4) System.out.printf("w%d %s GB/s=%.3f%n", w, names[mode], bytes / (double) nanos);
                }
            }
        }
    }
}
