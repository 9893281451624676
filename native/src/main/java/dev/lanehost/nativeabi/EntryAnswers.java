package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.callgate.InternalErrors;
import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.nativeabi.internal.HandleTable;

/**
 * What a host entry answers when it does not answer OK: the status and the sentence {@code last_error} then gives
 * the calling thread. Every method returns a status and never throws (a failure to build the sentence leaves the
 * status alone); {@link #missing} says why a handle its table did not find is refused; {@link #checkBuffers} checks a
 * gate call's buffers before anything is queued. State-free: the entries of every table share it.
 */
final class EntryAnswers {
    private static final int OK = CallStatus.OK.code();
    /** By code: {@link ExecutionLane#drive(int, dev.lanehost.lanes.DriveCounts)} answers a code, read back without a search. */
    private static final DriveStatus[] DRIVE_STATUSES = driveStatusesByCode();
    static final String NO_STACK = "INTERNAL_ERROR: the entry ran out of the calling thread's stack; threads that call"
            + " lanehost need at least 128 KiB of stack (see lanehost.h, \"Threads\")";
    private static final String FAILED_ANSWERING = "INTERNAL_ERROR: the entry failed, and so did building its answer";

    private EntryAnswers() {
    }

    /** The entry's answer for a drive that did not answer OK, by the drive's status code. */
    static int fromDriveCode(ExecutionLane lane, int code) {
        return fromDrive(lane, DRIVE_STATUSES[code]);
    }

    static String notExported(String kind, String name) {
        return name.isEmpty()
                ? "the name is empty: no " + kind + " is exported under one (an export's name is never empty)"
                : "no " + kind + " named '" + name + "' is exported";
    }

    static DriveStatus[] driveStatusesByCode() {
        DriveStatus[] byCode = new DriveStatus[DriveStatus.values().length];
        for (DriveStatus status : DriveStatus.values()) {
            byCode[status.code()] = status;
        }
        return byCode;
    }

    static int fromDrive(ExecutionLane lane, DriveStatus status) {
        return switch (status) {
            case OK -> OK;
            case WRONG_THREAD -> wrongThread(lane, false);
            case REENTRANT -> fail(CallStatus.WRONG_THREAD, "lane '" + lane.name() + "' is being driven by this thread right now");
            case INVALID_ARGUMENT -> fail(CallStatus.INVALID_ARGUMENT, "lane '" + lane.name() + "' refused the request");
            case CLOSED -> closed();
        };
    }

    static int closed() {
        return fail(CallStatus.CLOSED, "the runtime or its host ABI is closed");
    }

    static int fail(CallStatus status, String why) {
        try {
            HostTables.setLastError(status.name() + ": " + why);
        } catch (Throwable t) {
            return failed("setting the last error", t); // only a stack overflow gets here; failed answers it without text
        }
        return status.code();
    }

    /**
     * The answer for anything thrown inside an entry. Never throws. A thread short of stack may overflow again in
     * here: its sentence is then a constant, set without building anything.
     */
    static int failed(String entry, Throwable thrown) {
        try {
            if (thrown instanceof StackOverflowError) {
                HostTables.setLastError(NO_STACK);
                return CallStatus.INTERNAL_ERROR.code();
            }
            if (thrown instanceof ForeignMemory.InvalidArgument invalid) {
                return fail(CallStatus.INVALID_ARGUMENT, invalid.getMessage());
            }
            if (thrown instanceof Closed) {
                return closed();
            }
            if (thrown instanceof Released released) {
                return fail(CallStatus.CLOSED, released.getMessage());
            }
            if (thrown instanceof OutOfMemoryError) {
                return fail(CallStatus.OUT_OF_MEMORY, entry + ": the JVM ran out of memory (" + thrown.getMessage() + ")");
            }
            InternalErrors.report("host entry " + entry, thrown);
            return fail(CallStatus.INTERNAL_ERROR, entry + " failed inside lanehost: " + thrown.getClass().getName() + " (logged)");
        } catch (Throwable again) {
            try {
                HostTables.setLastError(again instanceof StackOverflowError ? NO_STACK : FAILED_ANSWERING);
            } catch (Throwable ignored) {
                // no sentence: the status alone
            }
            return CallStatus.INTERNAL_ERROR.code();
        }
    }

    /**
     * Why a handle its table did not find is refused: CLOSED if this table issued it and its object has since gone
     * (a normal event of the object's life), INVALID_ARGUMENT for a handle this table never issued, of another kind,
     * or of another runtime's host ABI (the host's mistake). Only a miss comes here, so the table's lock is no cost.
     */
    static RuntimeException missing(HandleTable<?> table, long handle) {
        String named = table.kindName() + " handle 0x" + Long.toHexString(handle);
        return switch (table.standing(handle)) { // a ring reference released twice is the host's mistake, not an object's end
            case RELEASED -> table.kindName().equals("ring reference")
                    ? new ForeignMemory.InvalidArgument(named + " was released already: each ring_lookup's reference is"
                            + " released once, and a second release never counts against another reference")
                    : new Released(named + switch (table.kindName()) {
                case "gate" -> " was closed: its gate closed and left the table";
                case "signal" -> " was closed: its signal can fire no more (a one-shot that fired, cancelled, or its actor halted)";
                default -> " was closed: its " + table.kindName() + " left the table";
            });
            case OTHER_TABLE -> new ForeignMemory.InvalidArgument(named + " belongs to another runtime's host ABI, not this one");
            case OTHER_KIND -> new ForeignMemory.InvalidArgument("0x" + Long.toHexString(handle) + " is not a "
                    + table.kindName() + " handle (0, another kind's handle, or random bits)");
            case NEVER_ISSUED, LIVE -> new ForeignMemory.InvalidArgument(named + " was never issued by this host ABI (forged or corrupted)");
        };
    }

    /** WRONG_THREAD, saying which thread the lane is bound to; a release also hears that an unbound lane has nothing to release. */
    static int wrongThread(ExecutionLane lane, boolean releasing) {
        Thread bound = lane.boundThread();
        String named = "lane '" + lane.name() + "' ";
        if (bound == null) {
            return fail(CallStatus.WRONG_THREAD, named + (releasing
                    ? "is not bound to any thread (never driven or bound, or released already): there is nothing to release"
                    : "was bound to another thread, which released it meanwhile: call again"));
        }
        return fail(CallStatus.WRONG_THREAD, named + "is bound to thread " + bound.getName() + (bound.isAlive() ? "" : " (which has ended)")
                + ", not to the calling thread " + Thread.currentThread().getName()
                + (releasing ? ": only its bound thread may release it" : ""));
    }

    /** The handle's object was closed or released: CLOSED, with this sentence. */
    static final class Released extends RuntimeException {
        Released(String message) {
            super(message, null, false, false);
        }
    }

    /** The host ABI or the runtime closed. */
    static final class Closed extends RuntimeException {
        Closed() {
            super(null, null, false, false);
        }
    }

    /** A gate call's lengths and buffers, checked before anything is queued: INVALID_ARGUMENT names the first wrong one. */
    static void checkBuffers(long args, long argsLength, long result, long resultCapacity, long resultLength) {
        if (argsLength < 0 || argsLength > HostEntries.MAX_ARGS_BYTES) {
            throw new ForeignMemory.InvalidArgument("args_length must be 0.." + HostEntries.MAX_ARGS_BYTES + ", got "
                    + Long.toUnsignedString(argsLength));
        }
        if (resultCapacity < 0) {
            throw new ForeignMemory.InvalidArgument("result_capacity " + Long.toUnsignedString(resultCapacity) + " is negative as int64");
        }
        if (argsLength > 0) {
            ForeignMemory.require(args, argsLength, "args");
        }
        if (resultCapacity > 0) {
            ForeignMemory.require(result, resultCapacity, "result");
        }
        ForeignMemory.require(resultLength, Long.BYTES, "result_length");
    }

    static void clearLength(long resultLength) {
        if (ForeignMemory.plausible(resultLength, Long.BYTES)) {
            ForeignMemory.putLong(resultLength, 0); // every answer but OK and OUT_OF_MEMORY leaves 0 here
        }
    }
}
