package dev.lanehost.lanes.mailbox;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.Down;
import dev.lanehost.lanes.ExitReason;
import dev.lanehost.lanes.TurnTask;
import dev.lanehost.lanes.budget.BudgetLimits;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One thing a turn handles, one final class per kind with typed fields: a send allocates one letter (and, when its
 * mailbox has no emptied chunk to reuse, a new chunk every {@link dev.lanehost.lanes.queue.MpscChunkQueue#DEFAULT_CHUNK_SLOTS}
 * letters).
 *
 * <p>The kinds are a sealed hierarchy of final classes sharing {@link #turnFlags}. Every field is final; the
 * mailbox's release/acquire of the letter's slot publishes them to the consumer.
 *
 * <p>Each kind delivers itself ({@link #deliver}) rather than the runner choosing by a pattern {@code switch}:
 * a pattern switch links through {@code SwitchBootstraps.typeSwitch} (an invokedynamic that spins a class on
 * first use) and lets the JIT speculate on the letter's class through that call site's argument profile, so a
 * host thread's first drive met linking, class spinning and a class-check trap. A virtual call has none of
 * these: a receiver the profile has not seen at a call site with three or more kinds is an ordinary virtual
 * call, not a deoptimization, and the warm-up ({@code ThreadWarmUp}) delivers three kinds.
 */
public abstract sealed class Letter
        permits Letter.Start, Letter.Message, Letter.DownNotice, Letter.Exit, Letter.TimerDue, Letter.SignalFired,
                Letter.ParkCompleted, Letter.Task, Letter.Reusable {

    /** No budget flags: the turn of any letter but a start. */
    static final int NO_FLAGS = 0;

    /**
     * The flags the turn's pause word begins with: {@link BudgetLimits#START} for an actor's start (budgeted
     * as a start), none for every other letter. Data rather than a test of the letter's class, so beginning a
     * turn has no branch for the JIT to prune (an {@code int}: it fits the padding of the smallest letters).
     */
    public final int turnFlags;

    Letter(int turnFlags) {
        this.turnFlags = turnFlags;
    }

    /** Runs this letter's turn body against {@code runner}'s actor. Called once, by the holder of its turn lock. */
    public abstract void deliver(Recipient runner) throws Exception;

    /** The first letter of every actor: make the behaviour and run {@code started}, on the placement. */
    public static final class Start extends Letter {
        public Start() {
            super((int) BudgetLimits.START);
        }

        @Override
        public void deliver(Recipient runner) throws Exception {
            runner.start();
        }
    }

    /** A message sent with {@link ActorRef#tell}. */
    public static final class Message extends Letter {
        public final Object message;

        public Message(Object message) {
            super(NO_FLAGS);
            this.message = message;
        }

        @Override
        public void deliver(Recipient runner) throws Exception {
            runner.behaviorReceives(message);
        }
    }

    /** A monitored actor ended; the behaviour receives the {@link dev.lanehost.lanes.Down} as a message. */
    public static final class DownNotice extends Letter {
        final Down down;

        public DownNotice(Down down) {
            super(NO_FLAGS);
            this.down = down;
        }

        @Override
        public void deliver(Recipient runner) throws Exception {
            runner.behaviorReceives(down);
        }
    }

    /** A linked peer ended abnormally: this actor halts with {@link ExitReason.Linked}. */
    public static final class Exit extends Letter {
        final ActorRef peer;
        final ExitReason reason;

        public Exit(ActorRef peer, ExitReason reason) {
            super(NO_FLAGS);
            this.peer = peer;
            this.reason = reason;
        }

        @Override
        public void deliver(Recipient runner) {
            runner.haltActor(new ExitReason.Linked(peer, reason));
        }
    }

    /** What a {@link TimerDue} runs: the timer that fell due, as its owner's turn sees it. */
    public interface Due {
        /** The owner's life that armed it. */
        int incarnation();

        /** The owner's turn for this firing. */
        void run(ActorContext context) throws Exception;
    }

    /** A timer fell due. */
    public static final class TimerDue extends Letter {
        public final Due timer;

        public TimerDue(Due timer) {
            super(NO_FLAGS);
            this.timer = timer;
        }

        @Override
        public void deliver(Recipient runner) throws Exception {
            if (timer.incarnation() == runner.incarnation()) {
                timer.run(runner);
            } // else armed by a life a hydration ended: dropped
        }
    }

    /** What a {@link SignalFired} runs: the signal that fired, as its owner's turn sees it. */
    public interface Fired {
        /** The owner's life that made it. */
        int incarnation();

        /** The owner's turn for one firing, with that firing's copy of the payload. */
        void run(ActorContext context, byte[] payload) throws Exception;
    }

    /** What a {@link ParkCompleted} runs: the park that was completed, as its owner's turn sees it. */
    public interface Completed {
        /** The owner's life that made it. */
        int incarnation();

        /** The owner's turn: the callback with the park's value, then the park's end. */
        void consume(ActorContext context) throws Exception;

        /** Its letter will never be consumed (its owner halted, or a hydration ended the life that parked). */
        void releaseUnconsumed();
    }

    /** A signal fired, with its own copy of the payload. */
    public static final class SignalFired extends Letter {
        final Fired signal;
        final byte[] payload;

        public SignalFired(Fired signal, byte[] payload) {
            super(NO_FLAGS);
            this.signal = signal;
            this.payload = payload;
        }

        @Override
        public void deliver(Recipient runner) throws Exception {
            if (signal.incarnation() == runner.incarnation()) {
                signal.run(runner, payload);
            } // else delivered to a life a hydration ended: dropped
        }
    }

    /** A park was completed; its value waits in the park. */
    public static final class ParkCompleted extends Letter {
        final Completed park;

        public ParkCompleted(Completed park) {
            super(NO_FLAGS);
            this.park = park;
        }

        @Override
        public void deliver(Recipient runner) throws Exception {
            if (park.incarnation() == runner.incarnation()) {
                park.consume(runner);
            } else {
                park.releaseUnconsumed();
            }
        }
    }

    /** A task submitted with {@link ActorRef#submit}. */
    public static final class Task extends Letter {
        final TurnTask task;

        public Task(TurnTask task) {
            super(NO_FLAGS);
            this.task = task;
        }

        @Override
        public void deliver(Recipient runner) throws Exception {
            task.run(runner);
        }
    }

    /**
     * A {@link dev.lanehost.lanes.ReusableTask}'s own letter: made once, with the task, and queued by every offer of it, so an offer
     * allocates nothing. It may be queued again once it has left the queue: the offer claims it ({@link #claim()}),
     * and its delivery or a refusal or a teardown's drop frees it.
     */
    public static final class Reusable extends Letter {
        private static final VarHandle QUEUED;

        static {
            try {
                QUEUED = MethodHandles.lookup().findVarHandle(Reusable.class, "queued", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final TurnTask task;

        /** In a queue: set by the offer that queues it, cleared when it leaves the queue. */
        @SuppressWarnings("unused")
        private volatile boolean queued;

        public Reusable(TurnTask task) {
            super(NO_FLAGS);
            this.task = task;
        }

        /** Whether the task is in an actor's queue now (offered, and neither run nor abandoned yet). Any thread. */
        public boolean isQueued() {
            return queued;
        }

        @Override
        public void deliver(Recipient runner) throws Exception {
            QUEUED.setRelease(this, false); // out of the queue: the run may offer it again
            task.run(runner);
        }

        /** The offer's claim on the task; false if it is already queued. */
        public boolean claim() {
            return QUEUED.compareAndSet(this, false, true);
        }

        /** The task left the queue without running (refused, or dropped by a halted actor's teardown). */
        public void unclaim() {
            QUEUED.setRelease(this, false);
        }
    }
}
