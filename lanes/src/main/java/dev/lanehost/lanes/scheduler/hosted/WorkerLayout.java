package dev.lanehost.lanes.scheduler.hosted;

import dev.lanehost.lanes.cell.ActorCell;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The memory layout of a {@link Worker}'s fields, grouped by the thread that writes them, each group between
 * 128 bytes of padding (two lines: x86 prefetches lines in adjacent pairs), as {@code MpscQueue} is laid out:
 * <pre>
 *   Thread               the JDK's fields
 *   PadBeforeRun         128 bytes
 *   RunFields            next, runs, nextRuns, pinnedFirst, nextVictim, turns, steals, ...   (the worker, every run)
 *   PadBeforeWake        128 bytes
 *   WakeFields           parked, spinning, wokenAt, wakeUps    (the worker when it idles, a waker when it wakes it)
 *   PadAfterWake         128 bytes
 *   Worker               index, pool, shared, pinned, handOff, ...   (written once; senders and thieves read them)
 * </pre>
 * A sender reads {@code parked} and {@code spinning} after every offer to a worker's queue (the park protocol): on
 * the line the worker wrote at each run, every such read missed. A superclass's fields come before a subclass's, and
 * the padding is {@code byte} fields so no small field slips into a hole the class before left.
 *
 * <p>Each group's accessors are named for their memory order, as the queues' are ({@code dev.lanehost.lanes.internal}):
 * {@code lv} acquire load, {@code lo} opaque load, {@code so} release store, {@code cas} compare-and-set; a
 * {@code count} method is the worker's own opaque increment.
 */
public final class WorkerLayout {
    private WorkerLayout() {
    }

    /** Keeps the run fields off the line that holds the last of {@link Thread}'s fields. */
    abstract static class PadBeforeRun extends Thread {
        @SuppressWarnings("unused")
        private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                     b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                     b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                     b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                     b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                     b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                     b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                     b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;

        PadBeforeRun(String name) {
            super(name);
        }
    }

    /** Written by the worker at every run; a thief reads {@code next} and {@code runs}, observers the counts. */
    abstract static class RunFields extends PadBeforeRun {
        /** The actor to run after the run in progress (Worker's class comment). Written by the worker, or CAS'd away by a thief. */
        @SuppressWarnings("unused")
        volatile ActorCell next;
        /** Runs the worker has finished (opaque): a thief compares it across sightings of the slot. */
        @SuppressWarnings("unused")
        volatile long runs;
        /** Runs from {@code next} since the worker last polled a queue. */
        int nextRuns;
        /** Which queue the worker looks at first next time: they alternate, so neither starves the other. */
        boolean pinnedFirst;
        /** Where the next steal starts looking, so thieves spread over victims. */
        int nextVictim;
        // Written by the worker (opaque), read by observers.
        @SuppressWarnings("unused")
        long turns;
        @SuppressWarnings("unused")
        long stealAttempts;
        @SuppressWarnings("unused")
        long steals;
        /** Actors handed in at the door. */
        @SuppressWarnings("unused")
        long handOffs;

        private static final VarHandle NEXT;
        private static final VarHandle RUNS;
        private static final VarHandle TURNS;
        private static final VarHandle STEAL_ATTEMPTS;
        private static final VarHandle STEALS;
        private static final VarHandle HAND_OFFS;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                NEXT = lookup.findVarHandle(RunFields.class, "next", ActorCell.class);
                RUNS = lookup.findVarHandle(RunFields.class, "runs", long.class);
                TURNS = lookup.findVarHandle(RunFields.class, "turns", long.class);
                STEAL_ATTEMPTS = lookup.findVarHandle(RunFields.class, "stealAttempts", long.class);
                STEALS = lookup.findVarHandle(RunFields.class, "steals", long.class);
                HAND_OFFS = lookup.findVarHandle(RunFields.class, "handOffs", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        RunFields(String name) {
            super(name);
        }

        final ActorCell lvNext() {
            return (ActorCell) NEXT.getAcquire(this);
        }

        final void soNext(ActorCell cell) {
            NEXT.setRelease(this, cell);
        }

        final boolean casNext(ActorCell expected, ActorCell cell) {
            return NEXT.compareAndSet(this, expected, cell);
        }

        // The counts: one writer (the worker), so a plain read and an opaque store count; observers read them opaque.

        final long loRuns() {
            return (long) RUNS.getOpaque(this);
        }

        final void countRun(int turns) {
            TURNS.setOpaque(this, (long) TURNS.get(this) + turns);
            RUNS.setOpaque(this, (long) RUNS.get(this) + 1);
        }

        final long loTurns() {
            return (long) TURNS.getOpaque(this);
        }

        final void countStealAttempt(boolean succeeded) {
            STEAL_ATTEMPTS.setOpaque(this, (long) STEAL_ATTEMPTS.get(this) + 1);
            if (succeeded) {
                STEALS.setOpaque(this, (long) STEALS.get(this) + 1);
            }
        }

        final long loStealAttempts() {
            return (long) STEAL_ATTEMPTS.getOpaque(this);
        }

        final long loSteals() {
            return (long) STEALS.getOpaque(this);
        }

        final void countHandOff() {
            HAND_OFFS.setOpaque(this, (long) HAND_OFFS.get(this) + 1);
        }

        final long loHandOffs() {
            return (long) HAND_OFFS.getOpaque(this);
        }
    }

    /** Keeps the wake fields off the run fields' lines. */
    abstract static class PadBeforeWake extends RunFields {
        @SuppressWarnings("unused")
        private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                     b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                     b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                     b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                     b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                     b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                     b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                     b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;

        PadBeforeWake(String name) {
            super(name);
        }
    }

    /** Read by every sender after its offer; written when the worker idles or parks, and by whoever wakes it. */
    abstract static class WakeFields extends PadBeforeWake {
        /** Set while the worker parks (step 1 of the park protocol); senders read it after their offer. */
        public volatile boolean parked;
        /** Set while the worker spins or yields, idle: it steals by itself, so a sender need wake nobody. */
        public volatile boolean spinning;
        /** When a sender last called the worker's wake-up ({@link System#nanoTime()}); written by the waker. */
        @SuppressWarnings("unused")
        long wokenAt;
        /** Times a sender unparked the worker. */
        @SuppressWarnings("unused")
        long wakeUps;

        private static final VarHandle PARKED;
        private static final VarHandle WOKEN_AT;
        private static final VarHandle WAKE_UPS;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                PARKED = lookup.findVarHandle(WakeFields.class, "parked", boolean.class);
                WOKEN_AT = lookup.findVarHandle(WakeFields.class, "wokenAt", long.class);
                WAKE_UPS = lookup.findVarHandle(WakeFields.class, "wakeUps", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        WakeFields(String name) {
            super(name);
        }

        final boolean casParked(boolean expected, boolean value) {
            return PARKED.compareAndSet(this, expected, value);
        }

        final long lvWokenAt() {
            return (long) WOKEN_AT.getAcquire(this);
        }

        final void soWokenAt(long nanos) {
            WOKEN_AT.setRelease(this, nanos);
        }

        /** Racy between wakers: a metric, not a count. */
        final void countWakeUp() {
            WAKE_UPS.setOpaque(this, (long) WAKE_UPS.get(this) + 1);
        }

        final long loWakeUps() {
            return (long) WAKE_UPS.getOpaque(this);
        }
    }

    /** Keeps the wake fields off the line of the worker's own fields and of whatever the allocator puts next. */
    abstract static class PadAfterWake extends WakeFields {
        @SuppressWarnings("unused")
        private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                     b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                     b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                     b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                     b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                     b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                     b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                     b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;

        PadAfterWake(String name) {
            super(name);
        }
    }
}
