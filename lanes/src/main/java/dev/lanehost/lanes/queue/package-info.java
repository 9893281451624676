/**
 * The lock-free queues under the runtime, which know nothing of actors, lanes or the API. Not API; the module does
 * not export it.
 *
 * <p>Owns {@link dev.lanehost.lanes.queue.MpscQueue}, an intrusive MPSC queue whose node is the queued object
 * ({@link dev.lanehost.lanes.queue.MpscNode}: a run-queue band holds actor cells in it, so a requeue allocates
 * nothing), {@link dev.lanehost.lanes.queue.MpscChunkQueue}, an MPSC queue of slots in reused chunks whose offer is
 * one CAS (a mailbox's letters), and {@link dev.lanehost.lanes.queue.WorkFlag}, the one word that says a queue may
 * hold work; and {@link dev.lanehost.lanes.queue.Latches}, the runtime's uninterruptible wait on a latch. It may call the
 * JDK only: everything else calls it.
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
package dev.lanehost.lanes.queue;
