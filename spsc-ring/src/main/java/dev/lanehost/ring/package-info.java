/**
 * The SPSC byte ring shared by Java and C.
 *
 * <p>{@link dev.lanehost.ring.SpscByteRing} moves a byte stream from one producer thread to one
 * consumer thread through off-heap memory laid out as {@link dev.lanehost.ring.SpscByteRingDescriptor}
 * says, which is byte for byte the layout of {@code native/include/lanehost/lanehost_ring.h}. Either
 * side may be C: a hard real-time callback uses the header's inline functions and never enters the
 * JVM. The Java side is split by role: {@code SpscByteRing} (the public entries and the observers),
 * {@code RingHeader} (the header as any thread sees it: format, checks, observers' loads), {@code RingSide} (what the
 * two sides share), {@code RingProducer} and {@code RingConsumer} (each side's one transfer path, its frames, and the
 * consumer's wait),
 * {@code WakeWord} (the wake word's steps) and {@code RingAccess}/{@code RawCopy} (the sides' way to the memory).
 *
 * <p>Invariants:
 * <ol>
 *   <li>Positions only grow; {@code 0 <= producer - consumer <= capacity} at every instant, the difference
 *       taken unsigned because the positions are 64-bit counters that wrap after 2^64 bytes.</li>
 *   <li>Only the producer writes the producer cache-line pair; only the consumer writes the consumer's. The
 *       one exception is the wake word, which a consumer sets (one compare-and-swap) only when it goes to
 *       sleep.</li>
 *   <li>Each side validated the capacity once and keeps it privately, so a corrupted header cannot
 *       make either side copy outside the data region; positions that break invariant 1 are refused by
 *       {@code wrap} and reported by the transfers, not followed.</li>
 * </ol>
 *
 * <p>Protocol of one transfer, one path for every write ({@code RingProducer.write}) and its mirror for every read
 * ({@code RingConsumer.read}):
 * <ol>
 *   <li>Claim: the side reads its own position (plain), and the other side's from its private cache; only if
 *       that shows too little (room for the producer, bytes for the consumer) does it acquire the other side's
 *       shared position.</li>
 *   <li>Copy the bytes in or out (in two pieces when they straddle the end of the data).</li>
 *   <li>Publish: release-store the side's new position. The producer then release-stores the doorbell and loads
 *       the wake word (plain, after a compiler barrier); only if a consumer announced that it sleeps does it make a
 *       wake system call. The consumer's release frees the bytes it copied.</li>
 * </ol>
 *
 * <p>Waiting: a consumer that would rather sleep than poll calls {@code awaitReadable}. The 32-bit wake word
 * ({@link dev.lanehost.ring.SpscByteRingDescriptor#WAKE_WORD_OFFSET}) is a futex word: bit 0 says a consumer is
 * waiting. The steps, the same in {@code lanehost_ring.h}:
 * <ol>
 *   <li>Consumer: check {@code readable()}; enough, done, without touching the wake word.</li>
 *   <li>Announce: read the wake word (acquire); if bit 0 is clear, set it with a compare-and-swap
 *       (acquire), retrying with the value a failed one saw. The word now holds the value {@code w} to
 *       sleep on.</li>
 *   <li>Fence the producer: {@code membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED)}; when it returns, every
 *       other thread of this process has run a full memory barrier.</li>
 *   <li>Re-check {@code readable()}; enough: withdraw (CAS {@code w} to {@code w} without bit 0; if that
 *       fails the producer cleared the bit itself) and return.</li>
 *   <li>{@code futex_wait(word, w, remaining time)}: returns at once if the word is no longer {@code w},
 *       when woken, or at the timeout. Once the deadline has passed: withdraw and return false, even if bytes
 *       arrived as it passed (the next read finds them), so a lost wake-up could never pass for a late
 *       success. Otherwise back to 2.</li>
 *   <li>Producer, after the release store of its position in a write that published bytes: a compiler
 *       barrier, then a plain load of the wake word. Bit 0 clear: done. That load of its own cache line is
 *       all a write pays when nobody waits: no read-modify-write, no fence instruction, no system call.</li>
 *   <li>Bit 0 set: clear it (the consumer announces again if it sleeps again), count a wake
 *       ({@link dev.lanehost.ring.SpscByteRing#wakeCount()}), {@code futex_wake(word)}.</li>
 * </ol>
 * No lost wake-up: this is Dekker's pattern (each side stores its flag and loads the other's), which needs
 * a store-load barrier on both sides; step 3 puts the producer's half into the producer's thread from
 * outside, only when a consumer is about to sleep. The membarrier splits the producer's instructions at a
 * full barrier: if its load (6) comes after it, the load sees the bit set in step 2 and the producer wakes
 * the consumer; if before, the position store that precedes the load is visible when the membarrier
 * returns and the re-check (4) sees the bytes. A consumer that reaches {@code futex_wait(w)} after step 7
 * cleared the bit returns at once, because the kernel compares the word with {@code w} before sleeping.
 *
 * <p>Names say the memory order of the access they make (the JCTools convention): {@code lp} a plain load,
 * {@code lv} a volatile or acquire load, {@code lo} an opaque load; {@code sp} a plain store, {@code so} an ordered
 * (release) store, {@code sv} a volatile store, {@code po} an opaque store; {@code cas} a compare-and-set (or a loop of
 * them). A method without a prefix makes several accesses, each named where it is made.
 */
package dev.lanehost.ring;
