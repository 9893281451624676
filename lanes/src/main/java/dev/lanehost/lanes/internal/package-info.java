/**
 * Data structures under the runtime; not API. {@link dev.lanehost.lanes.internal.MpscQueue} is an
 * intrusive wait-free-offer MPSC queue: mailboxes hold letters in it, and each run-queue band holds
 * actor cells in it, so neither a send's scheduling nor a requeue allocates a queue node.
 */
package dev.lanehost.lanes.internal;
