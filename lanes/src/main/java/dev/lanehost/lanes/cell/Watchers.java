package dev.lanehost.lanes.cell;

import dev.lanehost.lanes.Down;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.mailbox.Letter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Who is told when an actor ends: the actors monitoring it (each gets a {@link Down}) and the actors
 * linked to it (each is unlinked, and halts too if the end was abnormal).
 *
 * <p>Guarded by {@code this}; each critical section is a few collection updates. Once the owner's
 * teardown has notified everyone, a late monitor or link is answered at once instead of being recorded.
 */
public final class Watchers {
    private final List<ActorCell> monitors = new ArrayList<>(0);
    private final Set<ActorCell> links = new LinkedHashSet<>();
    /** Set once the watchers have been notified. */
    private boolean notified;

    /** Records a monitor. @return false if the owner has already ended (tell the watcher now) */
    public synchronized boolean addMonitor(ActorCell watcher) {
        if (notified) {
            return false;
        }
        monitors.add(watcher);
        return true;
    }

    /** Records the peer's side of a link. @return false if the owner has already ended */
    public synchronized boolean addLink(ActorCell peer) {
        if (notified) {
            return false;
        }
        links.add(peer);
        return true;
    }

    /** Records the owner's side of a link; the owner is in a turn, so it has not ended. */
    public synchronized void linkTo(ActorCell peer) {
        links.add(peer);
    }

    synchronized void unlink(ActorCell peer) {
        links.remove(peer);
    }

    /**
     * The owner's teardown, last step: a {@link Down} to each monitor; each link broken, and followed if abnormal. Not
     * for {@link ExitReason.Shutdown}: the close halts every actor with it (a lane's actors first, the others once the
     * runtime's threads have stopped), so a watcher or peer still running must not act on it — a monitor that spawned a
     * replacement would fail, and a peer end as {@code Linked}, for having outlived the owner by that moment.
     */
    public void notifyEnded(ActorCell owner, ExitReason reason) {
        List<ActorCell> watching;
        List<ActorCell> linked;
        synchronized (this) {
            notified = true;
            watching = new ArrayList<>(monitors);
            monitors.clear();
            linked = new ArrayList<>(links);
            links.clear();
        }
        boolean closing = reason instanceof ExitReason.Shutdown;
        if (!closing) {
            Down down = new Down(owner.ref, reason);
            for (ActorCell watcher : watching) {
                watcher.deliver(new Letter.DownNotice(down));
            }
        }
        for (ActorCell peer : linked) {
            peer.watchers.unlink(owner);
            if (reason.isAbnormal() && !closing) {
                peer.deliver(new Letter.Exit(owner.ref, reason));
            }
        }
    }
}
