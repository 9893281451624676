package dev.lanehost.ring;

/**
 * The memory layout of an {@link SpscByteRing}, mirrored byte for byte by
 * {@code native/include/lanehost/lanehost_ring.h}; {@code RingLayoutAgreementTest} compares the two.
 * The memory starts on a {@link #ALIGNMENT 128-byte} boundary.
 *
 * <pre>
 *     0                   1                   2                   3
 *     0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *    +---------------------------------------------------------------+
 *  0 |                     Magic 0x4C485242 "LHRB"                   |
 *  4 |                        Layout version                         |
 *  8 |                     Capacity (64 bits)                        |
 * 16 |  Owner closed (32 bits): 0 open, 1 the owner has let go      |  the owner writes once (release)
 * 20 |             Reserved, zero, up to byte 128                   ...
 *    +---------------------------------------------------------------+
 *128 |               Producer position (64 bits)                     |  producer writes (release)
 *136 |    Producer's cached consumer position (64 bits, private)     |  producer only
 *144 |               Overrun count (64 bits)                         |  producer writes
 *152 |             Padding up to byte 192                           ...
 *192 |               Doorbell (64 bits)                              |  producer writes (release)
 *200 |  Wake word (32 bits): bit 0 waiter, bits 1-31 zero         |  both: atomic read-modify-writes
 *204 |               Reserved, zero (32 bits)                        |
 *208 |               Wake count (64 bits)                            |  producer writes
 *216 |             Padding up to byte 256                           ...
 *    +---------------------------------------------------------------+
 *256 |               Consumer position (64 bits)                     |  consumer writes (release)
 *264 |    Consumer's cached producer position (64 bits, private)     |  consumer only
 *272 |               Underrun count (64 bits)                        |  consumer writes
 *280 |             Padding up to byte 384                           ...
 *    +---------------------------------------------------------------+
 *384 |               Data: capacity bytes                           ...
 *    +---------------------------------------------------------------+
 * </pre>
 *
 * <p>Protocol in one sentence: the producer copies bytes in and then publishes them with a release
 * store of its position, and the consumer frees them with a release store of its own. Positions
 * only grow; byte {@code p} lives at {@code data[p & (capacity - 1)]}.
 *
 * <p>Each side's fields sit in their own pair of cache lines, because adjacent-line prefetchers
 * fetch lines in pairs and a shared pair would bounce between the cores on every call. The doorbell and
 * the wake word have the producer's second line to themselves: the consumer polls the position line, and a
 * doorbell store there right after the position store would take that line away from the consumer a
 * second time per write. The wake word is the only word both sides write, the consumer only when it goes
 * to sleep, so in the steady state the line stays with the producer.
 *
 * <p>The wake word is a 32-bit Linux futex word: bit 0 ({@link #WAKE_WAITER}) says a consumer announced
 * that it sleeps; the bits above stay zero. The producer only loads it after each publishing write, so in
 * the steady state nobody writes it. The package's comment lists the protocol as numbered steps.
 */
public final class SpscByteRingDescriptor {
    /** "LHRB" read as a little-endian int. */
    public static final int MAGIC = 0x4C485242;
    /**
     * Bumped on any change to this layout or its protocol; 2 added the wake word and the wake count; 3 kept
     * the bytes and changed the waiting protocol (the producer only loads the wake word; a consumer about to
     * sleep fences the producer with membarrier), so a version-2 side would lose wake-ups with it.
     */
    public static final int LAYOUT_VERSION = 3;
    public static final int CACHE_LINE_LENGTH = 64;
    /**
     * Ring memory must start on a pair of cache lines: that is the C header struct's own alignment (so a
     * less aligned pointer to it is undefined behaviour in C), and it keeps each side's fields in one pair.
     */
    public static final int ALIGNMENT = 2 * CACHE_LINE_LENGTH;
    /** The smallest useful ring holds one cache line of data. */
    public static final long MIN_CAPACITY = 64;
    /** Positions are 64-bit; this leaves room for any number of wraps without sign trouble. */
    public static final long MAX_CAPACITY = 1L << 62;
    /** The wake word's bit 0: a consumer has announced that it is going to sleep. */
    public static final int WAKE_WAITER = 1;

    public static final int MAGIC_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int CAPACITY_OFFSET = 8;
    /**
     * The owner-closed word: 1 once the side that owns the ring (Java, for a ring exported to hosts) has let go of it,
     * so the other side knows no more bytes will come or be taken. It was reserved zero before, which reads as
     * "open", so adding it changed neither side's bytes nor protocol, and the layout version stays.
     */
    public static final int OWNER_CLOSED_OFFSET = 16;

    public static final int PRODUCER_POSITION_OFFSET;
    public static final int PRODUCER_CACHED_CONSUMER_POSITION_OFFSET;
    public static final int DOORBELL_OFFSET;
    public static final int WAKE_WORD_OFFSET;
    public static final int WAKE_COUNT_OFFSET;
    public static final int OVERRUN_COUNT_OFFSET;

    public static final int CONSUMER_POSITION_OFFSET;
    public static final int CONSUMER_CACHED_PRODUCER_POSITION_OFFSET;
    public static final int UNDERRUN_COUNT_OFFSET;

    /** Where the data begins: the header, then one cache-line pair per side. */
    public static final int HEADER_LENGTH;

    static {
        int offset = 0;
        offset += CACHE_LINE_LENGTH * 2; // the header's own pair

        PRODUCER_POSITION_OFFSET = offset;
        PRODUCER_CACHED_CONSUMER_POSITION_OFFSET = offset + Long.BYTES;
        OVERRUN_COUNT_OFFSET = offset + 2 * Long.BYTES;
        DOORBELL_OFFSET = offset + CACHE_LINE_LENGTH; // the pair's second line, with the wake word only
        WAKE_WORD_OFFSET = DOORBELL_OFFSET + Long.BYTES;
        WAKE_COUNT_OFFSET = WAKE_WORD_OFFSET + 2 * Integer.BYTES; // after the word and 32 reserved bits
        offset += CACHE_LINE_LENGTH * 2;

        CONSUMER_POSITION_OFFSET = offset;
        CONSUMER_CACHED_PRODUCER_POSITION_OFFSET = offset + Long.BYTES;
        UNDERRUN_COUNT_OFFSET = offset + 2 * Long.BYTES;
        offset += CACHE_LINE_LENGTH * 2;

        HEADER_LENGTH = offset;
    }

    // The C functions' negative results (lanehost_ring_status), for Java code that calls them.
    public static final int STATUS_INVALID_ARGUMENT = -1;
    public static final int STATUS_CAPACITY_NOT_POWER_OF_TWO = -2;
    public static final int STATUS_CAPACITY_TOO_SMALL = -3;
    public static final int STATUS_CAPACITY_TOO_LARGE = -4;
    public static final int STATUS_MISALIGNED = -5;
    public static final int STATUS_MEMORY_TOO_SHORT = -6;
    public static final int STATUS_BAD_MAGIC = -7;
    public static final int STATUS_BAD_VERSION = -8;
    public static final int STATUS_CORRUPT = -9;
    public static final int STATUS_TIMED_OUT = -10;
    public static final int STATUS_INTERRUPTED = -11;
    public static final int STATUS_UNSUPPORTED = -12;

    private SpscByteRingDescriptor() {
    }

    /** Bytes of memory a ring of this capacity needs: the header plus the data. */
    public static long memoryLength(long capacity) {
        checkCapacity(capacity);
        return HEADER_LENGTH + capacity;
    }

    /**
     * @throws IllegalArgumentException naming the problem, if capacity is not a power of two in
     *                                  [{@link #MIN_CAPACITY}, {@link #MAX_CAPACITY}]
     */
    public static void checkCapacity(long capacity) {
        if (capacity < MIN_CAPACITY) {
            throw new IllegalArgumentException("ring capacity " + capacity + " is too small: the minimum is " + MIN_CAPACITY + " bytes");
        }
        if (capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("ring capacity " + capacity + " is too large: the maximum is 2^62 bytes");
        }
        if (Long.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity " + capacity + " is not a power of two (nearest: "
                    + Long.highestOneBit(capacity) + " or " + (Long.highestOneBit(capacity) << 1) + ")");
        }
    }
}
