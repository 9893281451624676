package dev.lanehost.samples;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.nativeloader.LoadedLibrary;
import dev.lanehost.nativeloader.NativeLibraryException;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Java's handle on a JACK client of the JACK host ({@code samples/src/main/c/jack_host.h}): either the
 * lanehost client, whose process callback drives a lane through the host ABI table and writes a sine into
 * a lanehost ring with {@code lanehost_ring.h} only, or a plain C client that only counts, for comparison.
 *
 * <p>The library is built only where libjack was found; {@link #unavailableReason()} says why it is missing.
 */
public final class JackClient implements AutoCloseable {
    /** Must equal {@code LANEHOST_JACK_HOST_ABI_VERSION}. */
    public static final int ABI_VERSION = 7;

    private static final String[] HOST_ERRORS = {"BAD_CONFIG", "OUT_OF_MEMORY", "NO_SERVER", "JACK_FAILED", "BAD_RING"};
    private static final long STATS_SIZE = 176;
    private static final Library LIBRARY = Library.load();

    /** The loaded library's entry points, or why there are none. */
    private record Library(String unavailable, MethodHandle ready, MethodHandle hostOpen, MethodHandle ringOpen, MethodHandle plainOpen,
                           MethodHandle activate, MethodHandle deactivate, MethodHandle stats, MethodHandle durations,
                           MethodHandle close, MethodHandle samplesWritten, MethodHandle slowCallbacks, MethodHandle duplexOpen,
                           MethodHandle sweepOpen, MethodHandle connect, MethodHandle warmDrives) {
        static Library load() {
            LoadedLibrary library;
            try {
                library = NativeLibraryLoader.load(JackClient.class, "lanehost_jackhost", "lanehost_jack_host_abi_version", ABI_VERSION);
            } catch (NativeLibraryException e) {
                return new Library("the JACK host library was not built or does not load (is libjack-jackd2-dev installed?): "
                        + e.getMessage(), null, null, null, null, null, null, null, null, null, null, null, null, null, null, null);
            }
            Linker linker = Linker.nativeLinker();
            return new Library(null,
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_server_ready"), FunctionDescriptor.of(JAVA_INT, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_host_open"), FunctionDescriptor.of(JAVA_INT,
                            ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_DOUBLE)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_ring_open"), FunctionDescriptor.of(JAVA_INT,
                            ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_DOUBLE, JAVA_DOUBLE, JAVA_DOUBLE)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_plain_open"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_client_activate"), FunctionDescriptor.of(JAVA_INT, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_client_deactivate"), FunctionDescriptor.of(JAVA_INT, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_client_stats"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_client_durations"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_client_close"), FunctionDescriptor.of(JAVA_INT, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_client_samples_written"),
                            FunctionDescriptor.of(JAVA_LONG, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_client_slow_callbacks"),
                            FunctionDescriptor.of(JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, JAVA_INT)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_duplex_open"), FunctionDescriptor.of(JAVA_INT,
                            ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_sweep_open"), FunctionDescriptor.of(JAVA_INT,
                            ADDRESS, ADDRESS, ADDRESS, JAVA_DOUBLE, JAVA_DOUBLE, JAVA_DOUBLE)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_client_connect"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS)),
                    linker.downcallHandle(library.lookup().findOrThrow("lanehost_jack_host_warm_drives"),
                            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG, ADDRESS)));
        }

        Library available() {
            if (unavailable != null) {
                throw new IllegalStateException(unavailable);
            }
            return this;
        }
    }

    /**
     * What a client counted so far.
     *
     * @param processThreads   process threads seen in a row: 1 until JACK moves the callback (each activation does)
     * @param ringOverruns     periods dropped because the ring had no room for the whole period
     * @param slowDrives       drives that took longer than a period
     * @param processThreadId  the kernel thread id of the latest process callback's thread
     * @param firstDriveFailure the first failed drive's lanehost status, 0 if none
     * @param shutDown         JACK shut the client down (server gone, or the client was kicked out)
     * @param timingOverruns   the ring client: timing records dropped because the timing ring was full; the duplex
     *                         client: periods of monitor frames dropped because the monitor ring was full; else 0
     * @param firstDriveNanos  the first drive after the latest activation (the new process thread's first), 0 before one
     * @param earlyMaxDriveNanos the slowest of the first second's drives (375 at 48 kHz / 128 frames) after the latest
     *                         activation
     * @param firstDriveStart  when that first drive began ({@code CLOCK_MONOTONIC} = {@link System#nanoTime()}), 0 before one
     * @param underrunFrames   the duplex client: frames of silence played because the playback ring ran short; else 0
     * @param droppedLateFrames the duplex client: late frames read from the playback ring and thrown away to win that
     *                         silence back, so the delay stays the lead ({@code duplex_period.h}); else 0
     */
    public record Stats(long callbacks, long xruns, long threadInits, long warmUpFailures, long drivesOk, long driveFailures,
                        long turns, long samplesWritten, long ringOverruns, long processThreads, long activations,
                        long slowDrives, long maxDriveNanos, long processThreadId, int firstDriveFailure, int maxTurnsSeen,
                        boolean shutDown, int sampleRate, int periodFrames, long timingOverruns, long firstDriveNanos,
                        long earlyMaxDriveNanos, long firstDriveStart, long underrunFrames, long droppedLateFrames) {
    }

    private MemorySegment handle;

    private JackClient(MemorySegment handle) {
        this.handle = handle;
    }

    /** Null if the JACK host library loaded, else why not (for {@code assumeTrue} and messages). */
    public static String unavailableReason() {
        return LIBRARY.unavailable();
    }

    /** True if a client can connect to the JACK server {@code serverName} now. Prints nothing. */
    public static boolean serverReady(String serverName) {
        try (Arena arena = Arena.ofConfined()) {
            return (int) LIBRARY.available().ready().invokeExact(arena.allocateFrom(serverName)) == 1;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens (does not activate) the lanehost client: looks up {@code lane} and {@code ring} through
     * {@code table} and connects to {@code serverName} as {@code clientName}.
     *
     * @param maxTurns  the bound of each process callback's drive (> 0)
     * @param frequency the sine's frequency in Hz
     */
    public static JackClient openLaneHost(MemorySegment table, String serverName, String clientName, String lane, String ring,
                                          int maxTurns, double frequency) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int status = (int) LIBRARY.available().hostOpen().invokeExact(out, table, arena.allocateFrom(serverName),
                    arena.allocateFrom(clientName), arena.allocateFrom(lane), arena.allocateFrom(ring), maxTurns, frequency);
            return opened(status, out, "lanehost client '" + clientName + "' (lane '" + lane + "', ring '" + ring + "')");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens (does not activate) the ring client: its process callback touches rings only — one period of
     * {@code sweep} (at the server's rate) into {@code audioRing} and its output port, one timing record into
     * {@code timingRing} — and never enters the JVM. Both rings are looked up through {@code table}.
     */
    public static JackClient openRing(MemorySegment table, String serverName, String clientName, String audioRing,
                                      String timingRing, double f0, double f1, double sweepSeconds) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int status = (int) LIBRARY.available().ringOpen().invokeExact(out, table, arena.allocateFrom(serverName),
                    arena.allocateFrom(clientName), arena.allocateFrom(audioRing), arena.allocateFrom(timingRing), f0, f1,
                    sweepSeconds);
            return opened(status, out, "ring client '" + clientName + "' (rings '" + audioRing + "', '" + timingRing + "')");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Opens (does not activate) the duplex client: each period its process callback writes the input port into
     * {@code captureRing}, fills the output port from {@code playbackRing} (whole frames, then silence and one underrun
     * in the ring's header) and appends the period's {@link DuplexMonitor} frames to {@code monitorRing}; rings only,
     * never the JVM. The rings are looked up through {@code table}.
     */
    public static JackClient openDuplex(MemorySegment table, String serverName, String clientName, String captureRing,
                                        String playbackRing, String monitorRing) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int status = (int) LIBRARY.available().duplexOpen().invokeExact(out, table, arena.allocateFrom(serverName),
                    arena.allocateFrom(clientName), arena.allocateFrom(captureRing), arena.allocateFrom(playbackRing),
                    arena.allocateFrom(monitorRing));
            return opened(status, out, "duplex client '" + clientName + "' (rings '" + captureRing + "', '" + playbackRing
                    + "', '" + monitorRing + "')");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Opens (does not activate) a C client that plays the sweep from {@code f0} to {@code f1} Hz into its output port. */
    public static JackClient openSweep(String serverName, String clientName, double f0, double f1, double sweepSeconds) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int status = (int) LIBRARY.available().sweepOpen().invokeExact(out, arena.allocateFrom(serverName),
                    arena.allocateFrom(clientName), f0, f1, sweepSeconds);
            return opened(status, out, "sweep client '" + clientName + "'");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Connects this client's output port to {@code duplex}'s input port (both active). */
    public void connectTo(JackClient duplex) {
        try {
            check((int) LIBRARY.connect().invokeExact(live(), duplex.live()), "jack_connect");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Warms the lanehost client's drive path before {@link #activate()}: a new ordinary thread of the C client calls the
     * table's thread warm-up, then drives {@code scratchLane} {@code drives} times with the client's turn bound, pausing
     * {@code pauseNanos} after each (letters must reach the scratch lane's actor meanwhile, or the drives run no turns).
     * Blocks until that thread is done.
     *
     * @return the turns the drives ran
     */
    public long warmDrives(String scratchLane, int drives, long pauseNanos) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment turns = arena.allocate(JAVA_LONG);
            int status = (int) LIBRARY.warmDrives().invokeExact(live(), arena.allocateFrom(scratchLane), drives, pauseNanos, turns);
            check(status, "warming the drive path on lane '" + scratchLane + "'");
            return turns.get(JAVA_LONG, 0);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Opens (does not activate) a plain C client that writes silence and counts callbacks and xruns. */
    public static JackClient openPlain(String serverName, String clientName) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int status = (int) LIBRARY.available().plainOpen().invokeExact(out, arena.allocateFrom(serverName),
                    arena.allocateFrom(clientName));
            return opened(status, out, "plain client '" + clientName + "'");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The sample at {@code index} of the lanehost client's sine, as its C callback computes it. */
    public static float sineSample(long index, double frequency, int sampleRate) {
        return (float) Math.sin(2.0 * Math.PI * frequency / sampleRate * index);
    }

    public void activate() {
        check(call(LIBRARY.activate()), "jack_activate");
    }

    /** Deactivates the client: JACK ends its process thread, and {@link #activate()} starts a new one. */
    public void deactivate() {
        check(call(LIBRARY.deactivate()), "jack_deactivate");
    }

    public Stats stats() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(STATS_SIZE, 8);
            check((int) LIBRARY.stats().invokeExact(live(), s), "stats");
            return new Stats(s.get(JAVA_LONG, 0), s.get(JAVA_LONG, 8), s.get(JAVA_LONG, 16), s.get(JAVA_LONG, 24),
                    s.get(JAVA_LONG, 32), s.get(JAVA_LONG, 40), s.get(JAVA_LONG, 48), s.get(JAVA_LONG, 56),
                    s.get(JAVA_LONG, 64), s.get(JAVA_LONG, 72), s.get(JAVA_LONG, 80), s.get(JAVA_LONG, 88),
                    s.get(JAVA_LONG, 96), s.get(JAVA_LONG, 104), s.get(JAVA_INT, 112), s.get(JAVA_INT, 116),
                    s.get(JAVA_INT, 120) != 0, s.get(JAVA_INT, 124), s.get(JAVA_INT, 128),
                    Integer.toUnsignedLong(s.get(JAVA_INT, 132)), s.get(JAVA_LONG, 136), s.get(JAVA_LONG, 144),
                    s.get(JAVA_LONG, 152), s.get(JAVA_LONG, 160), s.get(JAVA_LONG, 168));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Samples the callback has placed in the ring so far: the producer's own clock, read with acquire, so the ring
     * holds at least this many beyond what its reader took. One downcall, no copy and no allocation, so a reader may
     * call it every tick.
     */
    public long samplesWritten() {
        try {
            return (long) LIBRARY.samplesWritten().invokeExact(live());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** The latest callbacks longer than half a period ({@code LANEHOST_JACK_SLOW_CALLBACKS} are kept). */
    public static final int SLOW_CALLBACKS_KEPT = 256;

    /**
     * The latest callbacks that took longer than half a period, oldest first, at most {@link #SLOW_CALLBACKS_KEPT}.
     *
     * @param total      slow callbacks in all, kept or not
     * @param startNanos when each started (CLOCK_MONOTONIC: {@link System#nanoTime()}'s clock on Linux, and the
     *                   JVM log's {@code timenanos} decorator)
     * @param nanos      how long each took
     */
    public record SlowCallbacks(long total, long[] startNanos, long[] nanos) {
    }

    /** The latest slow callbacks, to line up with the JVM's GC and safepoint log. */
    public SlowCallbacks slowCallbacks() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment starts = arena.allocate(JAVA_LONG, SLOW_CALLBACKS_KEPT);
            MemorySegment nanos = arena.allocate(JAVA_LONG, SLOW_CALLBACKS_KEPT);
            long total = (long) LIBRARY.slowCallbacks().invokeExact(live(), starts, nanos, SLOW_CALLBACKS_KEPT);
            int kept = (int) Math.min(total, SLOW_CALLBACKS_KEPT);
            return new SlowCallbacks(total, starts.asSlice(0, kept * Long.BYTES).toArray(JAVA_LONG),
                    nanos.asSlice(0, kept * Long.BYTES).toArray(JAVA_LONG));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** How long each process callback took so far, timed in C around the whole callback. */
    public CallbackDurations durations() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment counts = arena.allocate(JAVA_LONG, CallbackDurations.BUCKETS);
            MemorySegment max = arena.allocate(JAVA_LONG);
            check((int) LIBRARY.durations().invokeExact(live(), counts, CallbackDurations.BUCKETS, max), "durations");
            return new CallbackDurations(counts.toArray(JAVA_LONG), max.get(JAVA_LONG, 0));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Closes the JACK client and releases the ring reference (after which its memory may go). Idempotent. */
    @Override
    public void close() {
        if (handle == null) {
            return;
        }
        int status = call(LIBRARY.close());
        handle = null;
        check(status, "close");
    }

    /** A status's name, for messages. */
    public static String statusName(int status) {
        return HostStatus.name(status, HOST_ERRORS);
    }

    private static JackClient opened(int status, MemorySegment out, String what) {
        if (status != 0) {
            throw new IllegalStateException("could not open the JACK " + what + ": " + statusName(status));
        }
        return new JackClient(out.get(ADDRESS, 0));
    }

    private int call(MethodHandle entry) {
        try {
            return (int) entry.invokeExact(live());
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static void check(int status, String what) {
        if (status != 0) {
            throw new IllegalStateException(what + " failed: " + statusName(status));
        }
    }

    private MemorySegment live() {
        if (handle == null) {
            throw new IllegalStateException("this JACK client is closed");
        }
        return handle;
    }
}
