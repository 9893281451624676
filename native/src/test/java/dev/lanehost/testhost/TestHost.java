package dev.lanehost.testhost;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.nativeabi.LanehostLibrary;
import dev.lanehost.nativeloader.LoadedLibrary;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.ring.SpscByteRingDescriptor;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * Java's handle on {@code liblanehost_testhost} ({@code lanehost_testhost.h}): pthreads that Java did not
 * create, moving bytes through SPSC rings the way a native audio or video callback would. Used by tests,
 * the ring sample and benchmarks; never part of the product jar (it ships in {@code lanehost-native}'s test-jar).
 */
public final class TestHost {
    /** Must equal {@code LANEHOST_TESTHOST_ABI_VERSION}. */
    public static final int ABI_VERSION = 5;

    /** The side a foreign thread plays. */
    public enum Role {
        PRODUCER(1), CONSUMER(2);

        final int code;

        Role(int code) {
            this.code = code;
        }
    }

    /** Chunk sizes drawn from [1, maxChunk] with the seed, instead of always maxChunk. */
    public static final int RANDOM_CHUNKS = 1;
    /** Producer writes {@link #patternByte}; consumer verifies every byte against it. */
    public static final int PATTERN = 2;
    /**
     * Consumer sleeps in {@code lanehost_ring_wait_readable} on an empty ring instead of spinning; a wait that
     * times out (30 s: only a lost wake-up reaches it) ends the thread with {@code STATUS_TIMED_OUT}. Needs a
     * total above 0.
     */
    public static final int WAIT = 4;
    /** Producer pauses 0 to 50 us after each chunk, drawn with the seed: only the timing varies. */
    public static final int PAUSES = 8;

    /** The thread's position of first mismatch when every byte verified. */
    public static final long NO_MISMATCH = -1L; // UINT64_MAX

    private static final LoadedLibrary LIBRARY =
            NativeLibraryLoader.load(TestHost.class, "lanehost_testhost", "lanehost_testhost_abi_version", ABI_VERSION);
    private static final MethodHandle HANDLE_BITS = downcall("lanehost_testhost_handle_bits", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle HANDLE_CHECK = downcall("lanehost_testhost_handle_check", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG));
    private static final MethodHandle CALL_EVERY_ENTRY = downcall("lanehost_testhost_call_every_entry",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle PATTERN_BYTE = downcall("lanehost_testhost_pattern_byte", FunctionDescriptor.of(JAVA_BYTE, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle RING_ALLOC = downcall("lanehost_testhost_ring_alloc", FunctionDescriptor.of(ADDRESS, JAVA_LONG));
    private static final MethodHandle RING_FREE = downcall("lanehost_testhost_ring_free", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle START = downcall("lanehost_testhost_start",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT));
    private static final MethodHandle STOP = downcall("lanehost_testhost_stop", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle JOIN = downcall("lanehost_testhost_join", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle TRANSFER = downcall("lanehost_testhost_transfer",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final MethodHandle MOVE_CHUNKS = downcall("lanehost_testhost_move_chunks",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle ECHO = downcall("lanehost_testhost_echo",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT));

    private static final MethodHandle CALL_ON_NEW_THREAD = downcall("lanehost_testhost_call_on_new_thread",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS));
    private static final MethodHandle CALLER_START = downcall("lanehost_testhost_caller_start",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG));
    private static final MethodHandle CALLER_RUN = downcall("lanehost_testhost_caller_run",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG));
    private static final MethodHandle CALLER_STOP = downcall("lanehost_testhost_caller_stop", FunctionDescriptor.ofVoid(ADDRESS));

    private static final MethodHandle GATE_CALL = downcall("lanehost_testhost_gate_call_on_new_thread",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                    JAVA_LONG, ADDRESS));
    private static final MethodHandle GATE_CALL_ON_LANE = downcall("lanehost_testhost_gate_call_on_lane_on_new_thread",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS,
                    JAVA_INT, ADDRESS));
    private static final MethodHandle FUZZ = downcall("lanehost_testhost_fuzz",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, ADDRESS));

    private static final MethodHandle HOST_THREAD_START = downcall("lanehost_testhost_host_thread_start",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle HOST_THREAD_RUN = downcall("lanehost_testhost_host_thread_run",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS,
                    JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS));
    private static final MethodHandle HOST_THREAD_RUN_REPEAT = downcall("lanehost_testhost_host_thread_run_repeat",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS,
                    JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle HOST_THREAD_DRIVE_REPEAT = downcall("lanehost_testhost_host_thread_drive_repeat",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_LONG));
    private static final MethodHandle HOST_THREAD_LAST_NANOS = downcall("lanehost_testhost_host_thread_last_nanos",
            FunctionDescriptor.of(JAVA_LONG, ADDRESS));
    private static final MethodHandle HOST_THREAD_STOP = downcall("lanehost_testhost_host_thread_stop", FunctionDescriptor.ofVoid(ADDRESS));

    private TestHost() {
    }

    /** Starts a pthread that calls the host ABI {@code table} on request, as a host's callback thread would. */
    public static HostThread startHostThread(MemorySegment table) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int started = (int) HOST_THREAD_START.invokeExact(out, table);
            if (started != 0) {
                throw new IllegalStateException("lanehost_testhost_host_thread_start failed: " + statusText(started));
            }
            return new HostThread(out.get(ADDRESS, 0));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The byte at stream position {@code position} of the test pattern for {@code seed}; the same
     * function as the C {@code lanehost_testhost_pattern_byte}, so Java can produce or verify what C
     * verifies or produces.
     */
    public static byte patternByte(long position, long seed) {
        long mixed = position ^ (position >>> 8) ^ (position >>> 16) ^ (position >>> 24) ^ seed ^ (seed >>> 8);
        return (byte) mixed;
    }

    /** The handle layout the fuzzer forges with: field 0 slot bits, 1 generation bits, 2 instance bits, 3 check bits. */
    public static int handleBits(int field) {
        try {
            return (int) HANDLE_BITS.invokeExact(field);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The check byte the fuzzer computes for a handle's upper 56 bits. */
    public static long handleCheck(long handle) {
        try {
            return (long) HANDLE_CHECK.invokeExact(handle);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** What {@link #callEveryEntry} saw: each member's status in the table's order, and whether the thread attached. */
    public record EveryEntry(int[] statuses, int attached) {
    }

    /**
     * Every member of {@code table} (a {@code const lanehost_api *}) called once from a new pthread with {@code handle}
     * where a handle goes (members whose bit is set in {@code skip} are not called: status -1), and whether that
     * attached the thread to the JVM (1), did not (0), or could not be asked (-1).
     */
    public static EveryEntry callEveryEntry(MemorySegment table, long handle, int skip) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment statuses = arena.allocate(JAVA_INT, 17);
            MemorySegment attached = arena.allocate(JAVA_INT);
            int code = (int) CALL_EVERY_ENTRY.invokeExact(table, handle, skip, statuses, attached);
            if (code != 0) {
                throw new IllegalStateException("lanehost_testhost_call_every_entry failed: " + code);
            }
            return new EveryEntry(statuses.toArray(JAVA_INT), attached.get(JAVA_INT, 0));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The C implementation of {@link #patternByte}, so a test can compare the two. */
    public static byte nativePatternByte(long position, long seed) {
        try {
            return (byte) PATTERN_BYTE.invokeExact(position, seed);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Ring memory allocated and formatted by C ({@code aligned_alloc} + {@code lanehost_ring_init}), as a
     * segment of the ring's full length. Free it with {@link #freeRing}.
     *
     * @throws IllegalArgumentException if the capacity is invalid
     */
    public static MemorySegment allocateRing(long capacity) {
        long length = SpscByteRingDescriptor.memoryLength(capacity);
        try {
            MemorySegment memory = (MemorySegment) RING_ALLOC.invokeExact(capacity);
            if (memory.equals(MemorySegment.NULL)) {
                throw new OutOfMemoryError("C could not allocate " + length + " bytes of ring memory");
            }
            return memory.reinterpret(length);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    public static void freeRing(MemorySegment memory) {
        try {
            RING_FREE.invokeExact(memory);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts a pthread that plays {@code role} on the ring: it moves {@code total} bytes ({@code 0}: until
     * {@link ForeignThread#stop()}), in chunks of at most {@code maxChunk} bytes, spinning when full or empty.
     *
     * @throws IllegalStateException with the C library's message if the thread could not start
     */
    public static ForeignThread start(Role role, SpscByteRing ring, long total, long seed, int maxChunk, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            MemorySegment memory = ring.memory();
            int status = (int) START.invokeExact(out, role.code, memory, memory.byteSize(), total, seed, maxChunk, flags);
            if (status != 0) {
                throw new IllegalStateException("lanehost_testhost_start failed: " + statusText(status));
            }
            return new ForeignThread(out.get(ADDRESS, 0));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Moves exactly {@code total} bytes as {@code role} on the calling thread, in chunks of {@code chunk}
     * bytes, spinning until done. The native floor for benchmarks.
     *
     * @return the bytes moved
     */
    public static long transfer(Role role, SpscByteRing ring, long total, int chunk) {
        long moved;
        try {
            MemorySegment memory = ring.memory();
            moved = (long) TRANSFER.invokeExact(role.code, memory, memory.byteSize(), total, chunk);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (moved < 0) {
            throw new IllegalStateException("lanehost_testhost_transfer failed: " + statusText(moved));
        }
        return moved;
    }

    /**
     * One side on the calling thread, in C, chunk by chunk through {@code buffer}'s first {@code chunk} bytes: the
     * producer writes them into the ring {@code chunks} times, the consumer reads {@code chunks} chunks into them,
     * spinning while the ring is full or empty. A chunk that moves only in part goes on from where it stopped, so each
     * byte of the buffer meets the same offset within a page of the ring's data every time. The C side that a Java side
     * copying through the same native bytes is compared with.
     *
     * @return the bytes moved: {@code chunks * chunk}
     * @throws IllegalArgumentException if {@code buffer} is not native memory of at least {@code chunk} bytes
     * @throws IllegalStateException    with the C status's text if the chunk is 0 or the ring is refused
     */
    public static long moveChunks(Role role, SpscByteRing ring, MemorySegment buffer, long chunks, int chunk) {
        if (!buffer.isNative() || buffer.byteSize() < chunk) {
            throw new IllegalArgumentException("buffer must be native memory of at least " + chunk + " bytes: " + buffer);
        }
        long moved;
        try {
            MemorySegment memory = ring.memory();
            moved = (long) MOVE_CHUNKS.invokeExact(role.code, memory, memory.byteSize(), buffer, chunks, chunk);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (moved < 0) {
            throw new IllegalStateException("lanehost_testhost_move_chunks failed: " + statusText(moved));
        }
        return moved;
    }

    /**
     * Both sides on the calling thread, in C: {@code pairs} times, writes {@code chunk} bytes into an empty
     * ring and reads them back. The C floor of a transfer's fixed cost for benchmarks.
     *
     * @return the bytes read: {@code pairs * chunk}
     * @throws IllegalStateException with the C status's text if the chunk is 0 or over the capacity, or the
     *                               ring was not empty
     */
    public static long echo(SpscByteRing ring, long pairs, int chunk) {
        long read;
        try {
            MemorySegment memory = ring.memory();
            read = (long) ECHO.invokeExact(memory, memory.byteSize(), pairs, chunk);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
        if (read < 0) {
            throw new IllegalStateException("lanehost_testhost_echo failed: " + statusText(read));
        }
        return read;
    }

    /** The C signature of an upcall the test host's threads call: {@code int32_t fn(int64_t argument)}. */
    public static final FunctionDescriptor UPCALL = FunctionDescriptor.of(JAVA_INT, JAVA_LONG);

    /**
     * Starts a new pthread that calls {@code upcall(argument)} {@code calls} times, and waits for it.
     *
     * @param upcall an FFM upcall stub (or any C function pointer) of signature {@link #UPCALL}
     * @return each call's result, in order
     */
    public static int[] callOnNewThread(MemorySegment upcall, long argument, int calls) {
        if (calls < 0) {
            throw new IllegalArgumentException("calls must be >= 0, got " + calls);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment results = arena.allocate(JAVA_INT, Math.max(1, calls));
            int status = (int) CALL_ON_NEW_THREAD.invokeExact(upcall, argument, calls, results);
            if (status != 0) {
                throw new IllegalStateException("lanehost_testhost_call_on_new_thread failed: " + statusText(status));
            }
            return calls == 0 ? new int[0] : results.toArray(JAVA_INT);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Starts a pthread kept alive between batches of upcalls, so a benchmark pays the JVM attach (its
     * first upcall, made here) once.
     */
    public static Caller startCaller(MemorySegment upcall, long argument) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int status = (int) CALLER_START.invokeExact(out, upcall, argument);
            if (status != 0) {
                throw new IllegalStateException("lanehost_testhost_caller_start failed: " + statusText(status));
            }
            return new Caller(out.get(ADDRESS, 0));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * On a new pthread: optionally {@code drive(0)} first (binding a lane to the pthread), then one blocking
     * gate call through the C function pointer {@code call} ({@code lanehost_gate_call_fn}), with C-side
     * buffers. Pass {@link MemorySegment#NULL} for any pointer to test how the entry treats it.
     *
     * @return the call's status code
     */
    public static int gateCallOnNewThread(MemorySegment drive, MemorySegment call, long gate, MemorySegment args,
                                          long argsLength, MemorySegment result, long resultCapacity,
                                          MemorySegment resultLength, long timeoutNanos) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            int started = (int) GATE_CALL.invokeExact(drive, call, gate, args, argsLength, result, resultCapacity,
                    resultLength, timeoutNanos, status);
            if (started != 0) {
                throw new IllegalStateException("lanehost_testhost_gate_call_on_new_thread failed: " + statusText(started));
            }
            return status.get(JAVA_INT, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** On a new pthread: one lane gate call through {@code callOnLane} ({@code lanehost_gate_call_on_lane_fn}). */
    public static int gateCallOnLaneOnNewThread(MemorySegment callOnLane, long gate, long lane, MemorySegment args,
                                                long argsLength, MemorySegment result, long resultCapacity,
                                                MemorySegment resultLength, int maxTurns) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment status = arena.allocate(JAVA_INT);
            int started = (int) GATE_CALL_ON_LANE.invokeExact(callOnLane, gate, lane, args, argsLength, result,
                    resultCapacity, resultLength, maxTurns, status);
            if (started != 0) {
                throw new IllegalStateException("lanehost_testhost_gate_call_on_lane_on_new_thread failed: " + statusText(started));
            }
            return status.get(JAVA_INT, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * A pthread Java never created that calls the host ABI table on request; {@link #close()} ends it (the
     * JVM then detaches it, so a lane bound to it may rebind).
     */
    public static final class HostThread implements AutoCloseable {
        public static final int DRIVE = 1;
        public static final int BIND = 2;
        public static final int RELEASE = 3;
        public static final int WARM_UP = 4;
        public static final int GATE_CALL = 5;
        public static final int GATE_CALL_ON_LANE = 6;

        private MemorySegment handle;

        private HostThread(MemorySegment handle) {
            this.handle = handle;
        }

        /** {@code lane_drive(lane, maxTurns, counts)} on the pthread; counts may be NULL. @return the status code */
        public int drive(long lane, int maxTurns, MemorySegment counts) {
            return run(DRIVE, lane, 0, maxTurns, MemorySegment.NULL, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0, counts);
        }

        /** How long the last request took, measured on the pthread with {@code CLOCK_MONOTONIC}. */
        public long lastNanos() {
            if (handle == null) {
                throw new IllegalStateException("this host thread was stopped");
            }
            try {
                return (long) HOST_THREAD_LAST_NANOS.invokeExact(handle);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        /** {@code lane_drive(lane, maxTurns, NULL)} {@code times} times back to back on the pthread. @return how many were OK */
        public long driveRepeat(long lane, int maxTurns, long times) {
            if (handle == null) {
                throw new IllegalStateException("this host thread was stopped");
            }
            try {
                return (long) HOST_THREAD_DRIVE_REPEAT.invokeExact(handle, lane, maxTurns, times);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        /**
         * {@code op} {@code times} times back to back on the pthread (a benchmark's batch), with the arguments it uses.
         * @return how many returned OK
         */
        public long runRepeat(int op, long lane, long gate, int maxTurns, MemorySegment args, long argsLength,
                              MemorySegment result, long resultCapacity, MemorySegment resultLength, long timeoutNanos,
                              long times) {
            if (handle == null) {
                throw new IllegalStateException("this host thread was stopped");
            }
            try {
                return (long) HOST_THREAD_RUN_REPEAT.invokeExact(handle, op, lane, gate, maxTurns, args, argsLength, result,
                        resultCapacity, resultLength, timeoutNanos, times);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        /** {@code op} on the pthread with the arguments it uses (see {@code enum lanehost_testhost_op}). @return the status code */
        public int run(int op, long lane, long gate, int maxTurns, MemorySegment args, long argsLength, MemorySegment result,
                       long resultCapacity, MemorySegment resultLength, long timeoutNanos, MemorySegment counts) {
            if (handle == null) {
                throw new IllegalStateException("this host thread was stopped");
            }
            try {
                return (int) HOST_THREAD_RUN.invokeExact(handle, op, lane, gate, maxTurns, args, argsLength, result,
                        resultCapacity, resultLength, timeoutNanos, counts);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        /** Ends the pthread and waits for it. Idempotent. */
        @Override
        public void close() {
            if (handle != null) {
                try {
                    HOST_THREAD_STOP.invokeExact(handle);
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                } finally {
                    handle = null;
                }
            }
        }
    }

    /** A foreign pthread that makes batches of upcalls on request. */
    public static final class Caller implements AutoCloseable {
        private MemorySegment handle;

        private Caller(MemorySegment handle) {
            this.handle = handle;
        }

        /** Has the pthread make {@code calls} upcalls back to back; returns the sum of their results. */
        public long run(long calls) {
            if (handle == null) {
                throw new IllegalStateException("this caller was stopped");
            }
            try {
                return (long) CALLER_RUN.invokeExact(handle, calls);
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        /** Ends the pthread. Idempotent. */
        @Override
        public void close() {
            if (handle != null) {
                try {
                    CALLER_STOP.invokeExact(handle);
                } catch (Throwable e) {
                    throw new IllegalStateException(e);
                } finally {
                    handle = null;
                }
            }
        }
    }

    private static String statusText(long status) {
        return switch ((int) status) {
            case -100 -> "out of memory";
            case -101 -> "pthread_create failed";
            default -> LanehostLibrary.ringStatusText(status);
        } + " (" + status + ")";
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(LIBRARY.lookup().findOrThrow(name), descriptor);
    }

    /** A running test-host pthread. Join it exactly once. */
    public static final class ForeignThread {
        private MemorySegment handle;

        private ForeignThread(MemorySegment handle) {
            this.handle = handle;
        }

        /** Asks a free-running thread (total = 0) to stop after its current chunk. */
        public void stop() {
            try {
                STOP.invokeExact(live());
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        /** Waits for the thread to end and frees it. */
        public Result join() {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment moved = arena.allocate(JAVA_LONG);
                MemorySegment mismatch = arena.allocate(JAVA_LONG);
                int status = (int) JOIN.invokeExact(live(), moved, mismatch);
                handle = null;
                return new Result(status, moved.get(JAVA_LONG, 0), mismatch.get(JAVA_LONG, 0));
            } catch (RuntimeException | Error e) {
                throw e;
            } catch (Throwable e) {
                throw new IllegalStateException(e);
            }
        }

        private MemorySegment live() {
            if (handle == null) {
                throw new IllegalStateException("this test-host thread was already joined");
            }
            return handle;
        }
    }

    /**
     * What a test-host thread reports when joined.
     *
     * @param status        0, or the negative ring status that stopped it
     * @param moved         bytes it wrote or read
     * @param firstMismatch stream position of the first byte that failed verification, or {@link #NO_MISMATCH}
     */
    public record Result(int status, long moved, long firstMismatch) {
    }

    // ---------------------------------------------------------------- fuzzing the host function table

    /** The names {@link #fuzz} looks up as real targets ({@code LANEHOST_TESTHOST_FUZZ_*}); export them before a run. */
    public static final String FUZZ_LANE = "fuzz.lane";
    /** A gate on a worker actor whose handler returns (a plain value built from) its arguments. */
    public static final String FUZZ_ECHO_GATE = "fuzz.echo";
    /** A gate on a worker actor whose handler throws. */
    public static final String FUZZ_THROWING_GATE = "fuzz.throw";
    /** A gate whose handler echoes, on an actor placed on {@link #FUZZ_LANE}. */
    public static final String FUZZ_LANE_GATE = "fuzz.lane.echo";
    /** A multishot signal. */
    public static final String FUZZ_SIGNAL = "fuzz.signal";
    /** A one-shot signal. */
    public static final String FUZZ_ONE_SHOT_SIGNAL = "fuzz.once";
    /** A ring. */
    public static final String FUZZ_RING = "fuzz.ring";

    /** The members of {@code lanehost_api} in the table's order: the indexes of {@link FuzzReport#byEntry()}. */
    public static final List<String> FUZZ_ENTRIES = List.of("lane_lookup", "lane_drive", "lane_bind", "lane_release",
            "thread_warm_up", "gate_lookup", "gate_call", "gate_call_on_lane", "signal_lookup", "signal_fire",
            "ring_lookup", "ring_release", "last_error");
    private static final int FUZZ_STATUSES = 12;

    /** {@code lanehost_testhost_fuzz_report}; C pins the same 264 bytes with {@code _Static_assert}s. */
    private static final MemoryLayout FUZZ_REPORT = MemoryLayout.structLayout(
            JAVA_LONG.withName("calls"),
            MemoryLayout.sequenceLayout(FUZZ_STATUSES, JAVA_LONG).withName("by_status"),
            MemoryLayout.sequenceLayout(FUZZ_ENTRIES.size(), JAVA_LONG).withName("by_entry"),
            JAVA_LONG.withName("invalid_statuses"),
            JAVA_LONG.withName("missing_errors"),
            JAVA_LONG.withName("stale_errors"),
            JAVA_LONG.withName("wrong_answers"),
            JAVA_INT.withName("first_invalid_status"),
            JAVA_INT.withName("first_invalid_entry"),
            JAVA_INT.withName("first_missing_error_status"),
            JAVA_INT.withName("first_missing_error_entry"),
            JAVA_INT.withName("first_wrong_answer_status"),
            JAVA_INT.withName("first_wrong_answer_entry"));

    /**
     * Calls every member of the host function table {@code api} from {@code threads} new pthreads at once,
     * {@code callsPerThread} calls each, with random and adversarial arguments drawn from {@code seed}, mixed
     * with valid calls on the targets named {@code FUZZ_*} (see {@code lanehost_testhost_fuzz}). Blocks until
     * every thread has finished.
     *
     * @throws IllegalStateException if the run could not start its threads
     */
    public static FuzzReport fuzz(MemorySegment api, int threads, long callsPerThread, long seed) {
        if (threads < 1 || callsPerThread < 0) {
            throw new IllegalArgumentException("threads must be >= 1 and callsPerThread >= 0, got " + threads + ", " + callsPerThread);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment report = arena.allocate(FUZZ_REPORT);
            long calls = (long) FUZZ.invokeExact(api, threads, callsPerThread, seed, report);
            if (calls < 0) {
                throw new IllegalStateException("lanehost_testhost_fuzz failed: " + statusText(calls));
            }
            return FuzzReport.read(report);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * What a fuzz run saw.
     *
     * @param calls            entry calls made, the last_error check after each included
     * @param byStatus         returns per status code 0..11
     * @param byEntry          calls per table member, in {@link #FUZZ_ENTRIES} order
     * @param invalidStatuses  returns that are no {@code lanehost_status}
     * @param missingErrors    failures after which {@code last_error} gave no text
     * @param staleErrors      successes after which {@code last_error} still gave text
     * @param wrongAnswers     calls that must succeed (or be refused) and did not: lookups of the exported names,
     *                         the driver's drives, releases of held ring references, double releases, the caps,
     *                         {@code *result_length} against the status
     * @param firstInvalid     the first invalid status and its entry, or null
     * @param firstMissingError the status and entry of the first failure without text, or null
     * @param firstWrongAnswer the status and entry of the first wrong answer, or null
     */
    public record FuzzReport(long calls, long[] byStatus, long[] byEntry, long invalidStatuses, long missingErrors,
                             long staleErrors, long wrongAnswers, String firstInvalid, String firstMissingError,
                             String firstWrongAnswer) {

        private static FuzzReport read(MemorySegment report) {
            long statusesAt = FUZZ_REPORT.byteOffset(MemoryLayout.PathElement.groupElement("by_status"));
            long entriesAt = FUZZ_REPORT.byteOffset(MemoryLayout.PathElement.groupElement("by_entry"));
            return new FuzzReport(longAt(report, "calls"),
                    report.asSlice(statusesAt, FUZZ_STATUSES * 8L).toArray(JAVA_LONG),
                    report.asSlice(entriesAt, FUZZ_ENTRIES.size() * 8L).toArray(JAVA_LONG),
                    longAt(report, "invalid_statuses"), longAt(report, "missing_errors"), longAt(report, "stale_errors"),
                    longAt(report, "wrong_answers"),
                    first(report, "first_invalid_status", "first_invalid_entry", true),
                    first(report, "first_missing_error_status", "first_missing_error_entry", false),
                    first(report, "first_wrong_answer_status", "first_wrong_answer_entry", false));
        }

        /** Returns of {@code status}. */
        public long count(CallStatus status) {
            return byStatus[status.code()];
        }

        /** Calls of the table member named {@code entry} (e.g. {@code "gate_call"}). */
        public long calls(String entry) {
            int index = FUZZ_ENTRIES.indexOf(entry);
            if (index < 0) {
                throw new IllegalArgumentException("no table member named " + entry);
            }
            return byEntry[index];
        }

        @Override
        public String toString() {
            StringBuilder text = new StringBuilder().append(calls).append(" calls; by status:");
            for (int code = 0; code < byStatus.length; code++) {
                if (byStatus[code] > 0) {
                    text.append(' ').append(CallStatus.ofCode(code)).append('=').append(byStatus[code]);
                }
            }
            text.append("; by entry:");
            for (int index = 0; index < byEntry.length; index++) {
                text.append(' ').append(FUZZ_ENTRIES.get(index)).append('=').append(byEntry[index]);
            }
            return text.append("; invalid statuses ").append(invalidStatuses).append(" (first ").append(firstInvalid)
                    .append("), failures without error text ").append(missingErrors).append(" (first ").append(firstMissingError)
                    .append("), stale error texts ").append(staleErrors).append(", wrong answers ").append(wrongAnswers)
                    .append(" (first ").append(firstWrongAnswer).append(')').toString();
        }

        private static long longAt(MemorySegment report, String field) {
            return report.get(JAVA_LONG, FUZZ_REPORT.byteOffset(MemoryLayout.PathElement.groupElement(field)));
        }

        private static String first(MemorySegment report, String statusField, String entryField, boolean rawStatus) {
            int status = report.get(JAVA_INT, FUZZ_REPORT.byteOffset(MemoryLayout.PathElement.groupElement(statusField)));
            int entry = report.get(JAVA_INT, FUZZ_REPORT.byteOffset(MemoryLayout.PathElement.groupElement(entryField)));
            if (entry < 0) {
                return null;
            }
            CallStatus named = rawStatus ? null : CallStatus.ofCode(status);
            return (named == null ? "status " + status : named.name()) + " from " + FUZZ_ENTRIES.get(entry);
        }
    }
}
