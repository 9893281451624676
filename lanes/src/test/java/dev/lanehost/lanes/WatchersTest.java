package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.queue.WorkFlag;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What an ended actor tells its monitors and links: its end, but not the close's SHUTDOWN, which ends them too. */
class WatchersTest {
    private final ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
    private final RunQueue home = new RunQueue("test", null, null, new WorkFlag());

    @AfterEach
    void close() {
        runtime.close();
    }

    private ActorCell cell(long id) {
        return new ActorCell(id, "cell-" + id, Placement.NORMAL, runtime.context(), home, null, null,
                runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                () -> (context, message) -> { });
    }

    private long exitsSentToALinkedPeerFor(ExitReason reason) {
        ActorCell owner = cell(1);
        ActorCell peer = cell(2);
        owner.watchers.linkTo(peer);
        peer.watchers.linkTo(owner);
        long before = peer.mailbox.depth();
        owner.watchers.notifyEnded(owner, reason);
        return peer.mailbox.depth() - before;
    }

    private long downsSentToAMonitorFor(ExitReason reason) {
        ActorCell owner = cell(1);
        ActorCell watcher = cell(2);
        owner.watchers.addMonitor(watcher);
        long before = watcher.mailbox.depth();
        owner.watchers.notifyEnded(owner, reason);
        return watcher.mailbox.depth() - before;
    }

    @Test
    void aMonitorGetsADownForAnyEndButTheClosesShutdown() {
        assertEquals(1, downsSentToAMonitorFor(ExitReason.NORMAL));
        assertEquals(1, downsSentToAMonitorFor(ExitReason.KILLED));
        // A lane's actors end first in a close, while the rest still run: a monitor must not act on their end.
        assertEquals(0, downsSentToAMonitorFor(ExitReason.SHUTDOWN));
    }

    @Test
    void anAbnormalEndIsFollowedAcrossALinkButTheClosesShutdownIsNot() {
        assertEquals(1, exitsSentToALinkedPeerFor(ExitReason.KILLED));
        // A lane's actors end first in a close, while the rest still run: their peers must end as SHUTDOWN too,
        // not as Linked for having outlived them by the time the runtime's threads took to stop.
        assertEquals(0, exitsSentToALinkedPeerFor(ExitReason.SHUTDOWN));
        assertEquals(0, exitsSentToALinkedPeerFor(ExitReason.NORMAL));
    }
}
