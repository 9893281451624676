/**
 * The SPSC byte ring shared by Java and C.
 *
 * <p>{@link dev.lanehost.ring.SpscByteRing} moves a byte stream from one producer thread to one
 * consumer thread through off-heap memory laid out as {@link dev.lanehost.ring.SpscByteRingDescriptor}
 * says, which is byte for byte the layout of {@code native/include/lanehost/lanehost_ring.h}. Either
 * side may be C: a hard real-time callback uses the header's inline functions and never enters the
 * JVM.
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
 * <p>Protocol of one transfer:
 * <ol>
 *   <li>The producer reads its own position (plain), and the consumer position from its private cache;
 *       only if that shows too little room does it acquire the shared consumer position.</li>
 *   <li>It copies the bytes in (in two pieces when they straddle the end).</li>
 *   <li>It release-stores its new position, then the doorbell, then advances the wake word with one
 *       release read-modify-write; only if that shows a consumer asleep does it make a wake system call.</li>
 *   <li>The consumer acquires the producer position (from its cache unless short), copies the bytes out,
 *       and release-stores its new position, which frees them.</li>
 * </ol>
 *
 * <p>A consumer that would rather sleep than poll calls {@code awaitReadable}; the waiting protocol, as
 * numbered steps, and why it loses no wake-up, are in {@link dev.lanehost.ring.SpscByteRing}'s comment.
 */
package dev.lanehost.ring;
