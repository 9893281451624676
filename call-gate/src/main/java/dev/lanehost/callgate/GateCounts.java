package dev.lanehost.callgate;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A gate's admission count as two monotonic counters on cache lines of their own: calls admitted (added by
 * callers) and slots released (added by whoever ends a call, usually the actor's thread). Pending calls are the
 * difference. A caller reads the released count only when its last look at it says the bound may be reached (as
 * JCTools' producers cache the consumer's index), so a call that comes and goes moves no line between the
 * caller's core and the actor's for admission.
 *
 * <p>Each counter has a pair of lines to itself (x86 fetches lines in adjacent pairs), the padding in classes of its
 * own: the JVM lays a class's fields out by size, so padding declared beside a counter in one class lands after it,
 * and the admitted count shared a line with the gate object allocated just before (its handler, its closed flag),
 * which the actor's thread reads in every turn: each call moved that line to the actor's core and back.
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
    private byte r000, r001, r002, r003, r004, r005, r006, r007, r008, r009, r010, r011, r012, r013, r014, r015,
                 r016, r017, r018, r019, r020, r021, r022, r023, r024, r025, r026, r027, r028, r029, r030, r031,
                 r032, r033, r034, r035, r036, r037, r038, r039, r040, r041, r042, r043, r044, r045, r046, r047,
                 r048, r049, r050, r051, r052, r053, r054, r055, r056, r057, r058, r059, r060, r061, r062, r063,
                 r064, r065, r066, r067, r068, r069, r070, r071, r072, r073, r074, r075, r076, r077, r078, r079,
                 r080, r081, r082, r083, r084, r085, r086, r087, r088, r089, r090, r091, r092, r093, r094, r095,
                 r096, r097, r098, r099, r100, r101, r102, r103, r104, r105, r106, r107, r108, r109, r110, r111,
                 r112, r113, r114, r115, r116, r117, r118, r119, r120, r121, r122, r123, r124, r125, r126, r127;

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

/** Keeps the admitted count off the lines of whatever object the allocator put before this one. */
abstract class GateCountsPadBeforeAdmitted {
    @SuppressWarnings("unused")
    private byte p000, p001, p002, p003, p004, p005, p006, p007, p008, p009, p010, p011, p012, p013, p014, p015,
                 p016, p017, p018, p019, p020, p021, p022, p023, p024, p025, p026, p027, p028, p029, p030, p031,
                 p032, p033, p034, p035, p036, p037, p038, p039, p040, p041, p042, p043, p044, p045, p046, p047,
                 p048, p049, p050, p051, p052, p053, p054, p055, p056, p057, p058, p059, p060, p061, p062, p063,
                 p064, p065, p066, p067, p068, p069, p070, p071, p072, p073, p074, p075, p076, p077, p078, p079,
                 p080, p081, p082, p083, p084, p085, p086, p087, p088, p089, p090, p091, p092, p093, p094, p095,
                 p096, p097, p098, p099, p100, p101, p102, p103, p104, p105, p106, p107, p108, p109, p110, p111,
                 p112, p113, p114, p115, p116, p117, p118, p119, p120, p121, p122, p123, p124, p125, p126, p127;
}

/** Written by callers: the admitted count, and the released count as a caller last read it. */
abstract class GateCountsAdmitted extends GateCountsPadBeforeAdmitted {
    volatile long admitted;
    long releasedSeen;
}

/** Keeps the released count off the callers' lines. */
abstract class GateCountsPadBeforeReleased extends GateCountsAdmitted {
    @SuppressWarnings("unused")
    private byte q000, q001, q002, q003, q004, q005, q006, q007, q008, q009, q010, q011, q012, q013, q014, q015,
                 q016, q017, q018, q019, q020, q021, q022, q023, q024, q025, q026, q027, q028, q029, q030, q031,
                 q032, q033, q034, q035, q036, q037, q038, q039, q040, q041, q042, q043, q044, q045, q046, q047,
                 q048, q049, q050, q051, q052, q053, q054, q055, q056, q057, q058, q059, q060, q061, q062, q063,
                 q064, q065, q066, q067, q068, q069, q070, q071, q072, q073, q074, q075, q076, q077, q078, q079,
                 q080, q081, q082, q083, q084, q085, q086, q087, q088, q089, q090, q091, q092, q093, q094, q095,
                 q096, q097, q098, q099, q100, q101, q102, q103, q104, q105, q106, q107, q108, q109, q110, q111,
                 q112, q113, q114, q115, q116, q117, q118, q119, q120, q121, q122, q123, q124, q125, q126, q127;
}

/** Written by whoever ends calls. */
abstract class GateCountsReleased extends GateCountsPadBeforeReleased {
    volatile long released;
}
