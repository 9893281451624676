package dev.lanehost.lanes.turn;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.Down;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.Park;
import dev.lanehost.lanes.ParkCallback;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SignalCallback;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.Timer;
import dev.lanehost.lanes.TurnCallback;
import dev.lanehost.lanes.access.Access;
import dev.lanehost.lanes.access.ParkAccess;
import dev.lanehost.lanes.access.RefAccess;
import dev.lanehost.lanes.access.SignalAccess;
import dev.lanehost.lanes.access.TimerAccess;
import dev.lanehost.lanes.budget.BudgetLimits;
import dev.lanehost.lanes.budget.UnchargedWork;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RuntimeContext;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.resource.ActorPark;
import dev.lanehost.lanes.resource.ActorSignal;
import dev.lanehost.lanes.seam.Addressee;
import dev.lanehost.lanes.seam.LiveCounters;
import dev.lanehost.lanes.time.ActorTimer;
import java.lang.foreign.Arena;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * The {@link dev.lanehost.lanes.ActorContext} an actor's behaviour sees, usable only on the thread running its turn (its turns
 * themselves: {@link TurnRunner}). Every call is a poll site of the turn budget, which its {@link TurnClock} keeps.
 */
public final class TurnContext extends TurnRunner {
    private static final RefAccess<ActorRef, Addressee> REFS = Access.refs();
    private static final ParkAccess<Park<?>, ActorPark<?>> PARKS = Access.parks();
    private static final SignalAccess<Signal, ActorSignal> SIGNALS = Access.signals();
    private static final TimerAccess<Timer, ActorTimer> TIMERS = Access.timers();

    static {
        UnchargedWork.register(context -> {
            if (!(context instanceof TurnContext turn)) {
                throw new IllegalStateException(context.getClass().getName() + " is not a runtime's turn context");
            }
            turn.checkTurnThread();
            turn.clock.stopCharging();
        });
    }

    public TurnContext(ActorCell cell, Supplier<? extends Behavior> factory, BudgetLimits limits) {
        super(cell, factory, limits);
    }

    // ---------------------------------------------------------------- ActorContext (own turn only)

    @Override
    public ActorRef self() {
        checkInTurn();
        return cell.ref;
    }

    @Override
    public long nanoTime() {
        checkInTurn();
        return cell.runtime.nanoTime();
    }

    @Override
    public ActorRef spawn(String name, Placement placement, SpawnOptions options, Supplier<? extends Behavior> factory) {
        checkInTurn();
        return cell.runtime.spawn(name, placement, options, factory);
    }

    @Override
    public Timer delay(Duration delay, TurnCallback callback) {
        checkInTurn();
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(callback, "callback");
        if (delay.isNegative()) {
            throw new IllegalArgumentException("a timer's delay must be >= 0 (ZERO: as soon as possible), got " + delay);
        }
        return TIMERS.handle(cell.runtime.arm(cell, delay, 0, callback));
    }

    @Override
    public Timer every(Duration period, TurnCallback callback) {
        checkInTurn();
        Objects.requireNonNull(period, "period");
        Objects.requireNonNull(callback, "callback");
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("a repeating timer needs a period > 0, got " + period);
        }
        long periodNanos;
        try {
            periodNanos = period.toNanos();
        } catch (ArithmeticException tooLong) {
            throw new IllegalArgumentException("a repeating timer's period must fit in a long of nanoseconds (about 292 years), got " + period);
        }
        return TIMERS.handle(cell.runtime.arm(cell, period, periodNanos, callback));
    }

    @Override
    public Signal signal(SignalMode mode, SignalCallback callback, Runnable releaseHook) {
        checkInTurn();
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(callback, "callback");
        ActorSignal signal = new ActorSignal(cell, mode, callback, releaseHook);
        cell.resources.add(signal);
        cell.runtime.counters().opened(LiveCounters.Kind.SIGNALS);
        return SIGNALS.handle(signal);
    }

    @Override
    public <T> Park<T> park(ParkCallback<T> callback, Runnable releaseHook) {
        checkInTurn();
        Objects.requireNonNull(callback, "callback");
        ActorPark<T> park = new ActorPark<>(cell, callback, releaseHook);
        cell.resources.add(park);
        cell.runtime.counters().opened(LiveCounters.Kind.PARKS);
        @SuppressWarnings("unchecked") // the handle stands for this park, whose value is a T
        Park<T> handle = (Park<T>) PARKS.handle(park);
        return handle;
    }

    @Override
    public void monitor(ActorRef actor) {
        checkInTurn();
        ActorCell target = (ActorCell) REFS.addressee(Objects.requireNonNull(actor, "actor"));
        if (!target.watchers.addMonitor(cell)) {
            cell.deliver(new Letter.DownNotice(new Down(actor, target.exitReason)));
        }
    }

    @Override
    public void link(ActorRef actor) {
        checkInTurn();
        ActorCell peer = (ActorCell) REFS.addressee(Objects.requireNonNull(actor, "actor"));
        if (peer == cell) {
            return;
        }
        if (!peer.watchers.addLink(cell)) {
            if (peer.exitReason.isAbnormal()) {
                cell.halt(new ExitReason.Linked(actor, peer.exitReason));
            }
            return;
        }
        cell.watchers.linkTo(peer);
    }

    @Override
    public void stop() {
        checkInTurn();
        cell.halt(ExitReason.NORMAL);
    }

    @Override
    public Arena arena() {
        checkInTurn();
        return cell.resources.arena();
    }

    @Override
    public void unneeded(Duration idleTimeout, TurnCallback lastTurn) {
        checkInTurn();
        Objects.requireNonNull(idleTimeout, "idle timeout");
        if (!idleTimeout.equals(NEVER) && (idleTimeout.isNegative() || idleTimeout.isZero())) {
            throw new IllegalArgumentException("an idle timeout must be positive, or ActorContext.NEVER; got " + idleTimeout);
        }
        if (!idleTimeout.equals(NEVER) && idleTimeout.compareTo(Duration.ofDays(365 * 100)) > 0) {
            throw new IllegalArgumentException("an idle timeout over a hundred years is NEVER; got " + idleTimeout);
        }
        idle.unneeded(idleTimeout, lastTurn);
    }

    @Override
    public boolean shouldYield() {
        checkTurnThread();
        return (explicitPoll() & BudgetLimits.YIELD) != 0;
    }

    @Override
    public void checkpoint() {
        checkTurnThread();
        explicitPoll();
    }

    /**
     * Blocking actors: the next message, waited for on this thread. Announce as the receiver, then look, then
     * park: a delivery offers, then reads the receiver and unparks it, so one side sees the other.
     */
    @Override
    public Object receive(Duration timeout) {
        checkInTurn();
        Objects.requireNonNull(timeout, "timeout");
        if (!cell.blocking) {
            throw new IllegalStateException("receive(timeout) blocks its thread, so only an actor spawned with spawnBlocked "
                    + "may call it; " + cell.describe() + " gets its messages in receive(context, message)");
        }
        long deadline = System.nanoTime() + Math.max(0, timeout.toNanos());
        while (true) {
            Letter next = cell.mailbox.peek();
            if (next instanceof Letter.Message) {
                return ((Letter.Message) cell.mailbox.take()).message;
            }
            if (next != null || cell.exitReason != null || cell.runtime.isClosed()) {
                return null; // another kind of letter is next (it runs as this actor's next turn), or the actor is ending
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            cell.receiver = Thread.currentThread();
            try {
                // isEmpty, not a null peek: its volatile read of the senders' position is what orders this re-check
                // after the announcement above (a sender claims, then reads the receiver). Not empty but nothing to
                // peek is a sender between its claim and its store: look again at once.
                if (cell.mailbox.isEmpty() && cell.exitReason == null && !cell.runtime.isClosed()) {
                    LockSupport.parkNanos(this, left);
                } else if (cell.mailbox.peek() == null) {
                    Thread.onSpinWait();
                }
            } finally {
                cell.receiver = null;
            }
            if (Thread.interrupted()) {
                Thread.currentThread().interrupt();
                return null;
            }
        }
    }

    /** SIMULATED spends an explicit poll site's virtual time here (and its clock raises flags), then every profile polls. */
    private long explicitPoll() {
        if (cell.runtime.budgetClock == RuntimeContext.BudgetClock.VIRTUAL) {
            cell.runtime.spendPollTime();
            clock.raise(cell.runtime.nanoTime(), null); // virtual time: no CPU time to ask
        }
        return clock.poll();
    }

    /** Every context call: the caller must be this actor's turn, and a disrupted turn ends here. */
    private void checkInTurn() {
        checkTurnThread();
        clock.poll();
    }

    private void checkTurnThread() {
        if (turnThread != Thread.currentThread()) {
            throw outsideTurn(); // built out of line, so every context call stays small enough to inline
        }
    }

    private IllegalStateException outsideTurn() {
        return new IllegalStateException("the context of actor " + cell.id + " (" + cell.name
                + ") was used outside its own turn, on " + Thread.currentThread().getName());
    }
}
