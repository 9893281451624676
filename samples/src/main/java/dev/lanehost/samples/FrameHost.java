package dev.lanehost.samples;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.nativeloader.LoadedLibrary;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Java's handle on the frame host ({@code samples/src/main/c/frame_host.h}): a C frame loop at a fixed rate
 * that drives a lane each frame, and a C input thread that calls a gate with CBOR input events
 * ({@code {"seq": n, "dx": -1|0|1}}, answered with {@code n}). Both reach lanehost only through the host ABI
 * table they are given.
 *
 * <pre>{@code
 * try (FrameHost host = FrameHost.start(abi.table(), "frame", "input", new FrameHost.Settings(120, 4, 120, 1200, 60,
 *         Duration.ofSeconds(10)))) {
 *     FrameHost.Run run = host.join();
 * }
 * }</pre>
 */
public final class FrameHost implements AutoCloseable {
    /** Must equal {@code LANEHOST_FRAME_HOST_ABI_VERSION}. */
    public static final int ABI_VERSION = 2;
    /** The status recorded for an event answered OK with another event's sequence number. */
    public static final int WRONG_ACK = -4;

    private static final String[] HOST_ERRORS = {"BAD_CONFIG", "OUT_OF_MEMORY", "THREAD_FAILED", "WRONG_ACK"};
    private static final long RECORD_SIZE = 32;
    private static final long SUMMARY_SIZE = 48;

    private static final LoadedLibrary LIBRARY = NativeLibraryLoader.load(FrameHost.class, "lanehost_framehost",
            "lanehost_frame_host_abi_version", ABI_VERSION);
    private static final MethodHandle START = downcall("lanehost_frame_host_start", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle STOP = downcall("lanehost_frame_host_stop", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle JOIN = downcall("lanehost_frame_host_join", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle RECORDS = downcall("lanehost_frame_host_records", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle PROGRESS = downcall("lanehost_frame_host_progress",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle FREE = downcall("lanehost_frame_host_free", FunctionDescriptor.ofVoid(ADDRESS));

    /**
     * How the host runs.
     *
     * @param rateHz      frames per second
     * @param maxTurns    the bound of each frame's drive (> 0)
     * @param minFrames   frames to run at least
     * @param maxFrames   frames to run at most, even if the input thread is not done
     * @param events      gate calls the input thread makes, one after the other
     * @param callTimeout the bound of each gate call
     */
    public record Settings(int rateHz, int maxTurns, int minFrames, int maxFrames, int events, Duration callTimeout) {
        public Settings {
            if (rateHz <= 0 || maxTurns <= 0 || minFrames < 0 || maxFrames <= 0 || minFrames > maxFrames || events < 0) {
                throw new IllegalArgumentException("need rateHz > 0, maxTurns > 0, 0 <= minFrames <= maxFrames, maxFrames > 0, "
                        + "events >= 0; got " + rateHz + " Hz, " + maxTurns + " turns, frames " + minFrames + ".." + maxFrames
                        + ", " + events + " events");
            }
            Objects.requireNonNull(callTimeout, "callTimeout");
        }
    }

    /** One frame: the drive's status and counts, its duration, and how late the frame woke. */
    public record Frame(int status, int turns, long remaining, long driveNanos, long jitterNanos) {
    }

    /**
     * What the host did.
     *
     * @param frameWarmUpStatus   {@code thread_warm_up} on the frame thread
     * @param inputWarmUpStatus   {@code thread_warm_up} on the input thread
     * @param frameThreadId       the frame thread's kernel thread id
     * @param inputThreadId       the input thread's
     * @param frames              every frame run
     * @param lateFrames          frames that woke more than a period late (the schedule restarted there)
     * @param eventsSent          gate calls made
     * @param eventsOk            calls answered OK with their own sequence number
     * @param firstFailureStatus  the first other call's status ({@link #WRONG_ACK} for a wrong answer), 0 if none
     * @param firstFailureEvent   its sequence number
     */
    public record Run(int frameWarmUpStatus, int inputWarmUpStatus, long frameThreadId, long inputThreadId, List<Frame> frames,
                      int lateFrames, int eventsSent, int eventsOk, int firstFailureStatus, int firstFailureEvent) {
        /** A status's name, for messages. */
        public static String statusName(int status) {
            return HostStatus.name(status, HOST_ERRORS);
        }
    }

    /**
     * What the threads did so far, while they run; each count read on its own.
     *
     * @param frames     frames run
     * @param lateFrames of which late
     * @param eventsOk   gate calls answered OK with their own sequence number
     * @param turns      turns run by all drives
     */
    public record Progress(int frames, int lateFrames, int eventsOk, long turns) {
    }

    private MemorySegment handle;
    private Run run;

    private FrameHost(MemorySegment handle) {
        this.handle = handle;
    }

    /**
     * Starts the two host threads against {@code table} (a {@code const lanehost_api *}), after looking up
     * the lane and the gate through it.
     *
     * @throws IllegalStateException naming the status if a lookup or the start failed
     */
    public static FrameHost start(MemorySegment table, String lane, String gate, Settings settings) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int status = (int) START.invokeExact(out, table, arena.allocateFrom(lane), arena.allocateFrom(gate),
                    settings.rateHz(), settings.maxTurns(), settings.minFrames(), settings.maxFrames(), settings.events(),
                    settings.callTimeout().toNanos());
            if (status != 0) {
                throw new IllegalStateException("the frame host did not start: " + Run.statusName(status)
                        + " (lane '" + lane + "', gate '" + gate + "')");
            }
            return new FrameHost(out.get(ADDRESS, 0));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits for both threads to end and reads what they recorded. Later calls return the same run. */
    public Run join() {
        if (run != null) {
            return run;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment summary = arena.allocate(SUMMARY_SIZE, 8);
            int status = (int) JOIN.invokeExact(handle, summary);
            if (status != 0) {
                throw new IllegalStateException("lanehost_frame_host_join failed: " + Run.statusName(status));
            }
            int frameCount = summary.get(JAVA_INT, 24);
            MemorySegment records = ((MemorySegment) RECORDS.invokeExact(handle)).reinterpret(frameCount * RECORD_SIZE);
            List<Frame> frames = new ArrayList<>(frameCount);
            for (int i = 0; i < frameCount; i++) {
                long at = i * RECORD_SIZE;
                frames.add(new Frame(records.get(JAVA_INT, at), records.get(JAVA_INT, at + 4), records.get(JAVA_LONG, at + 8),
                        records.get(JAVA_LONG, at + 16), records.get(JAVA_LONG, at + 24)));
            }
            run = new Run(summary.get(JAVA_INT, 0), summary.get(JAVA_INT, 4), summary.get(JAVA_LONG, 8),
                    summary.get(JAVA_LONG, 16), List.copyOf(frames), summary.get(JAVA_INT, 28), summary.get(JAVA_INT, 32),
                    summary.get(JAVA_INT, 36), summary.get(JAVA_INT, 40), summary.get(JAVA_INT, 44));
            return run;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** What the threads did so far; callable while they run, until {@link #close()}. */
    public Progress progress() {
        if (handle == null) {
            throw new IllegalStateException("this frame host is closed");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment p = arena.allocate(24, 8);
            int status = (int) PROGRESS.invokeExact(handle, p);
            if (status != 0) {
                throw new IllegalStateException("lanehost_frame_host_progress failed: " + Run.statusName(status));
            }
            return new Progress(p.get(JAVA_INT, 0), p.get(JAVA_INT, 4), p.get(JAVA_INT, 8), p.get(JAVA_LONG, 16));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Asks both threads to stop early: the input thread after its current call, the frame loop once the input
     * thread has ended (so that call is answered in a frame, not left to time out).
     */
    public void stop() {
        try {
            STOP.invokeExact(handle);
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Stops the threads if they still run, waits for them, and frees the host. Idempotent. */
    @Override
    public void close() {
        if (handle == null) {
            return;
        }
        try {
            if (run == null) {
                stop();
                join();
            }
            FREE.invokeExact(handle);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        } finally {
            handle = null;
        }
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(LIBRARY.lookup().findOrThrow(name), descriptor);
    }
}
