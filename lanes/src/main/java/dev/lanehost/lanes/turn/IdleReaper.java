package dev.lanehost.lanes.turn;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.TurnCallback;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.time.ActorTimer;
import java.time.Duration;

/**
 * One actor's idle timeout: an actor whose mailbox stays quiet that long is reaped ({@link ExitReason#REAPED}).
 * Quiet means no letter handled and none waiting: an armed timer, a pending park, an attached signal or a gate call
 * it may still get are not liveness; a letter that arrives is. The timeout is the runtime's ({@link dev.lanehost.lanes.RuntimeBuilder#idleTimeout},
 * off by default) or the actor's own ({@link ActorContext#unneeded}); {@link ActorContext#NEVER} exempts it.
 *
 * <p>A repeating check timer, at a quarter of the timeout, compares the runtime clock with the start of the last
 * turn that was not its own; so the actor is reaped between one and one and a quarter timeouts after it went
 * quiet, by a turn of its own, on its placement (an actor's last turn runs its {@code unneeded} callback there).
 * Runner only: every method runs under the actor's turn lock.
 */
public final class IdleReaper {
    private final ActorCell cell;
    /** 0: no timeout. */
    private long idleNanos;
    /** Exempt: {@code unneeded(NEVER)}. */
    private boolean permanent;
    private TurnCallback lastTurn;
    private ActorTimer check;
    private long lastActivityNanos;

    IdleReaper(ActorCell cell) {
        this.cell = cell;
    }

    /** A turn begins: activity, unless it is the check itself. */
    void turnStarted(Letter letter) {
        // With no check armed there is nothing to measure (and no clock read): arming starts the quiet from its own turn.
        if (check != null && (!(letter instanceof Letter.TimerDue due) || due.timer != check)) {
            lastActivityNanos = cell.runtime.nanoTime();
        }
    }

    /** After the actor's start (or a hydrated fresh start): the runtime's timeout applies unless the start set one. */
    void started() {
        if (check == null && !permanent && idleNanos == 0 && cell.runtime.idleNanos > 0) {
            idleNanos = cell.runtime.idleNanos;
            arm();
        }
    }

    /** {@link ActorContext#unneeded}: the actor's own timeout and last turn, or {@code NEVER}. */
    void unneeded(Duration idle, TurnCallback last) {
        cancel();
        lastTurn = last;
        if (idle.equals(ActorContext.NEVER)) {
            permanent = true;
            idleNanos = 0;
            return;
        }
        permanent = false;
        idleNanos = idle.toNanos();
        arm();
    }

    /** A hydration released the former life's resources, its check among them: the fresh state starts over. */
    void forgetLife() {
        check = null;
        idleNanos = 0;
        permanent = false;
        lastTurn = null;
    }

    private void arm() {
        lastActivityNanos = cell.runtime.nanoTime(); // quiet from now: this turn is activity
        long period = Math.max(1, idleNanos / 4);
        check = cell.runtime.arm(cell, Duration.ofNanos(period), period, this::check);
    }

    private void cancel() {
        if (check != null) {
            check.cancel();
            check = null;
        }
    }

    /**
     * The check's turn: reap once the actor has been quiet for the whole timeout. A letter waiting behind the check
     * is not quiet (its turn will count as activity): reaping then would drop a letter its sender was told was queued.
     * The halt is claimed before the last turn runs, so from then on a send is refused ({@link dev.lanehost.lanes.Delivery#TERMINATED})
     * instead of joining a mailbox no turn will read; only a send racing the claim itself is dropped, as with any halt.
     */
    private void check(ActorContext context) throws Exception {
        if (cell.runtime.nanoTime() - lastActivityNanos < idleNanos || !cell.mailbox.isEmpty()) {
            return;
        }
        cancel();
        TurnCallback last = lastTurn;
        lastTurn = null;
        if (cell.halt(ExitReason.REAPED) && last != null) {
            last.run(context); // its final turn: this one
        }
    }
}
