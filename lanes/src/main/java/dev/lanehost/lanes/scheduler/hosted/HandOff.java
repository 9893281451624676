package dev.lanehost.lanes.scheduler.hosted;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A spinning worker's door: a thread off the pool that makes a normal actor runnable hands it straight to a
 * worker that is spinning idle, through one word on a line of its own, instead of through the worker's run
 * queue. The queue's way costs the worker's core several lines the sender wrote (the queue's tail and link, its
 * work flag, the worker's parked word for the wake-up check); the door's way costs one, the door itself, and the
 * worker already reads it as it spins. A blocking gate call from outside the pool reaches a spinning worker ~0.1–0.15 µs
 * sooner this way.
 *
 * <h2>Protocol</h2>
 * The word holds {@link #CLOSED}, {@link #OPEN}, or the actor handed in ({@code T}: an {@code ActorCell} in a worker;
 * anything in the stress test). Every change but the first is a CAS from the value just read.
 * <ol>
 *   <li>The worker opens its door (release store of {@code OPEN}) when it starts to spin, and only then.</li>
 *   <li>A sender holding the actor's scheduled flag hands it in: {@code OPEN} → actor. It owns the actor until
 *       the CAS succeeds; if it fails (closed, or another actor got there first), it queues the actor as before.</li>
 *   <li>The worker, spinning, takes an actor it finds there and closes the door in the same step: actor →
 *       {@code CLOSED}.</li>
 *   <li>Another spinning worker may steal an actor that has waited at the door while the worker did not take it (its
 *       thread was not running: two spinners and a caller on two cores): actor → {@code OPEN}, the door stays open.</li>
 *   <li>The worker closes its door when it stops spinning for any other reason (work found elsewhere, parking,
 *       the pool's stop): {@code OPEN} → {@code CLOSED}, or actor → {@code CLOSED}, which hands the worker the actor
 *       to run or queue. An actor handed in is never left behind a closed door.</li>
 * </ol>
 * A handed-in actor leaves the door by exactly one CAS from the actor itself (step 3, 4 or 5), so exactly one thread
 * gets it; a sender whose CAS failed still holds its own. (jcstress {@code HandOffTest}: senders, the worker's take
 * and close, and a thief.)
 */
public final class HandOff<T> extends HandOffWord {
    @SuppressWarnings("unused")
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;

    /** The worker is not spinning: nothing may be handed in. */
    static final Object CLOSED = new Object();
    /** The worker spins and its door is empty. */
    static final Object OPEN = new Object();
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(HandOffWord.class, "word", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Step 1: the worker starts to spin. Worker only. */
    public void open() {
        WORD.setRelease(this, OPEN);
    }

    /**
     * Step 1 for a worker's kept actor ({@code KeptActor}): the worker puts an actor whose schedule it holds at its
     * door itself, in place of opening it; steps 3 to 5 follow as for an actor handed in. Worker only, door closed.
     */
    public void place(T cell) {
        WORD.setRelease(this, cell);
    }

    /**
     * A worker's kept actor ({@code KeptActor}): puts {@code next} at the door in place of {@code waiting}, which the
     * worker so takes back, in one CAS. Worker only. @return false if a thief took {@code waiting} first (the door is open)
     */
    public boolean swap(T waiting, T next) {
        return WORD.compareAndSet(this, waiting, next);
    }

    /** True if the door is open and empty now (racy: a hint for choosing among workers). Any thread. */
    public boolean isOpen() {
        return WORD.getAcquire(this) == OPEN;
    }

    /**
     * Step 2: hands {@code cell} in. The caller holds its scheduled flag and has set its home to this worker's
     * queue. Any thread.
     *
     * @return true if the worker now owns the actor; false if the caller still does
     */
    public boolean handIn(T cell) {
        return WORD.compareAndSet(this, OPEN, cell);
    }

    /**
     * Step 3: the actor handed in, taking it closes the door; null if none (or a thief took it first). Worker only,
     * while its door is open.
     */
    @SuppressWarnings("unchecked")
    public T take() {
        Object word = WORD.getAcquire(this);
        if (word == OPEN || word == CLOSED || !WORD.compareAndSet(this, word, CLOSED)) {
            return null;
        }
        return (T) word;
    }

    /** The actor waiting at the door now, or null. Any thread (racy: a thief's look before {@link #steal}). */
    @SuppressWarnings("unchecked")
    public T peek() {
        Object word = WORD.getAcquire(this);
        return word == OPEN || word == CLOSED ? null : (T) word;
    }

    /** Step 4: a thief takes {@code cell} if it still waits at the door, which stays open. @return true if it did */
    public boolean steal(T cell) {
        return WORD.compareAndSet(this, cell, OPEN);
    }

    /**
     * Step 5: closes the door. Worker only.
     *
     * @return an actor handed in before the close, which the worker now owns; or null
     */
    @SuppressWarnings("unchecked")
    public T close() {
        while (true) {
            Object word = WORD.getAcquire(this);
            if (word == CLOSED) {
                return null;
            }
            if (WORD.compareAndSet(this, word, CLOSED)) {
                return word == OPEN ? null : (T) word;
            }
            // A sender handed an actor in, or a thief took one, since the read: look again.
        }
    }
}

/** The door's word, behind a line of padding; {@link HandOff} pads after it. */
abstract class HandOffWord extends HandOffPad {
    @SuppressWarnings("unused")
    volatile Object word = HandOff.CLOSED;
}

/** Keeps the word off the line with the object's header and whatever the allocator put before it. */
abstract class HandOffPad {
    @SuppressWarnings("unused")
    private byte b000, b001, b002, b003, b004, b005, b006, b007, b008, b009, b010, b011, b012, b013, b014, b015,
                 b016, b017, b018, b019, b020, b021, b022, b023, b024, b025, b026, b027, b028, b029, b030, b031,
                 b032, b033, b034, b035, b036, b037, b038, b039, b040, b041, b042, b043, b044, b045, b046, b047,
                 b048, b049, b050, b051, b052, b053, b054, b055, b056, b057, b058, b059, b060, b061, b062, b063,
                 b064, b065, b066, b067, b068, b069, b070, b071, b072, b073, b074, b075, b076, b077, b078, b079,
                 b080, b081, b082, b083, b084, b085, b086, b087, b088, b089, b090, b091, b092, b093, b094, b095,
                 b096, b097, b098, b099, b100, b101, b102, b103, b104, b105, b106, b107, b108, b109, b110, b111,
                 b112, b113, b114, b115, b116, b117, b118, b119, b120, b121, b122, b123, b124, b125, b126, b127;
}
