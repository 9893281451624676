package dev.lanehost.tests.stress;

import dev.lanehost.lanes.queue.MpscNode;
import dev.lanehost.lanes.queue.MpscQueue;

/** A queue node that carries a number, for the MPSC queue tests. */
final class ValuedNode extends MpscNode {
    final int value;

    ValuedNode(int value) {
        this.value = value;
    }

    /**
     * The racing consumer's step in the MPSC tests: it offers {@code node} as a producer, then polls once as the
     * consumer. @return the value polled, or 0 if the poll met another producer mid-offer
     */
    static int offerThenPoll(MpscQueue<ValuedNode> queue, ValuedNode node) {
        queue.offer(node);
        ValuedNode polled = queue.poll();
        return polled == null ? 0 : polled.value;
    }
}
