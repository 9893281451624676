/**
 * Building blocks under the runtime that know nothing of actors, lanes or the API; not API. Nothing here
 * imports {@code dev.lanehost.lanes}, so dependencies only point down into this package.
 *
 * <ul>
 *   <li>{@link dev.lanehost.lanes.internal.MpscQueue} — an intrusive wait-free-offer MPSC queue that counts
 *       its offers and polls, its consumer's and producers' fields on separate padded cache lines. Each run-queue
 *       band holds actor cells in it, so a requeue allocates no queue node; {@link dev.lanehost.lanes.internal.MpscNode}
 *       is the node.</li>
 *   <li>{@link dev.lanehost.lanes.internal.MpscChunkQueue} — an unbounded MPSC queue of slots in reused chunks, whose
 *       positions are its counts and whose offer is one CAS, bounded on request in the same CAS. Mailboxes hold
 *       letters in it: a letter is stored into the queue once, not twice, which is what G1's write barrier charges
 *       for once a long-lived mailbox is old.</li>
 *   <li>{@link dev.lanehost.lanes.internal.LiveCounters} — live signals, timers, parks and arenas.</li>
 *   <li>{@link dev.lanehost.lanes.internal.VirtualClock} — the SIMULATED profile's time.</li>
 *   <li>{@link dev.lanehost.lanes.internal.LaneBinding} — which thread a lane is bound to, and how that
 *       moves with its host.</li>
 *   <li>{@link dev.lanehost.lanes.internal.StallWatch} — a lane's stall detection, kept by observers.</li>
 * </ul>
 *
 * <h2>Memory order in names</h2>
 * A queue's fields are read and written through accessors ({@code MpscChunkQueue}'s in
 * {@code MpscChunkQueueProducerFields} and the layout classes it extends, {@code MpscQueue}'s beside its code),
 * named, as in JCTools, for the order of the access: {@code lp} and {@code sp} a plain load and store, {@code lv} a
 * volatile or acquire load, {@code lo} and {@code po} an opaque load and store (atomic, unordered), {@code so} an
 * ordered (release) store, {@code sv} a volatile store, {@code cas} a compare-and-set, {@code xchg} an atomic exchange. Where
 * a protocol needs no call between a claim and its store (a call can throw a stack overflow), the store is written
 * inline and its comment gives its order.
 */
package dev.lanehost.lanes.internal;
