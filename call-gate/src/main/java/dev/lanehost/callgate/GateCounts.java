package dev.lanehost.callgate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A gate's admission count as two monotonic counters on cache lines of their own: calls admitted (added by
 * callers) and slots released (added by whoever ends a call, usually the actor's thread). Pending calls are the
 * difference. A caller reads the released count only when its last look at it says the bound may be reached (as
 * JCTools' producers cache the consumer's index), so a call that comes and goes moves no line between the
 * caller's core and the actor's for admission.
 */
final class GateCounts extends GateCountsReleased {
    private static final VarHandle ADMITTED;
    private static final VarHandle RELEASED;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            ADMITTED = lookup.findVarHandle(GateCountsAdmitted.class, "admitted", long.class);
            RELEASED = lookup.findVarHandle(GateCountsReleased.class, "released", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")
    private byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015,
                 p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031,
                 p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047,
                 p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;

    /**
     * Admits one call if fewer than {@code bound} are pending. Any thread. No call is admitted past the bound: each
     * counts itself in first, and one that finds the bound passed counts itself out again (a caller racing with it
     * may be refused too, never admitted wrongly).
     */
    boolean admit(int bound) {
        long in = (long) ADMITTED.getAndAdd(this, 1L) + 1;
        if (in - releasedSeen <= bound) {
            return true;
        }
        long out = (long) RELEASED.getVolatile(this);
        releasedSeen = out; // a stale value only makes a later admission look again
        if (in - out <= bound) {
            return true;
        }
        released(); // refused: this call's count is undone as if it had come and gone
        return false;
    }

    /** A call no longer occupies the actor. Any thread. */
    void released() {
        RELEASED.getAndAdd(this, 1L);
    }

    /** Calls admitted and not yet released; racy but never negative. Any thread. */
    int pending() {
        long out = (long) RELEASED.getVolatile(this);
        long in = (long) ADMITTED.getVolatile(this);
        return (int) Math.max(0, in - out);
    }
}

/** Written by callers: the admitted count, and the released count as a caller last read it. */
abstract class GateCountsAdmitted {
    @SuppressWarnings("unused")
    private byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015,
                 p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031,
                 p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047,
                 p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063;
    volatile long admitted;
    long releasedSeen;
}

/** Written by whoever ends calls. */
abstract class GateCountsReleased extends GateCountsAdmitted {
    @SuppressWarnings("unused")
    private byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015,
                 q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031,
                 q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047,
                 q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063;
    volatile long released;
}
