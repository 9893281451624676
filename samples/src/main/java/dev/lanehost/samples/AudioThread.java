package dev.lanehost.samples;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_DOUBLE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.nativeloader.LoadedLibrary;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Java's handle on the built-in audio thread ({@code samples/src/main/c/audio_thread.h}): a C pthread that wakes
 * every period on absolute deadlines and writes one period of a {@link Sweep} into a ring and one timing record
 * into another, through {@code lanehost_ring.h} only. It never enters the JVM; the rings are looked up through
 * the host ABI table on the thread that calls {@link #start}.
 */
public final class AudioThread implements AudioProducer {
    /** Must equal {@code LANEHOST_AUDIO_THREAD_ABI_VERSION}. */
    public static final int ABI_VERSION = 1;

    private static final String[] HOST_ERRORS = {"BAD_CONFIG", "OUT_OF_MEMORY", "THREAD_FAILED", "BAD_RING"};
    private static final long STATS_SIZE = 64;

    private static final LoadedLibrary LIBRARY = NativeLibraryLoader.load(AudioThread.class, "lanehost_audiothread",
            "lanehost_audio_thread_abi_version", ABI_VERSION);
    private static final MethodHandle START = downcall("lanehost_audio_thread_start", FunctionDescriptor.of(JAVA_INT,
            ADDRESS, ADDRESS, ADDRESS, ADDRESS, JAVA_INT, JAVA_INT, JAVA_DOUBLE, JAVA_DOUBLE, JAVA_DOUBLE, JAVA_LONG));
    private static final MethodHandle STATS = downcall("lanehost_audio_thread_stats_get",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle STOP = downcall("lanehost_audio_thread_stop", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle JOIN = downcall("lanehost_audio_thread_join", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    private final Sweep sweep;
    private final int periodFrames;
    private MemorySegment handle;
    private Counts last;

    private AudioThread(MemorySegment handle, Sweep sweep, int periodFrames) {
        this.handle = handle;
        this.sweep = sweep;
        this.periodFrames = periodFrames;
    }

    /**
     * Starts the thread: {@code periodFrames} frames every period at {@code sweep.rate()} Hz into the rings
     * exported as {@code audioRing} and {@code timingRing}, until {@link #close()}, or after {@code maxPeriods}
     * periods (0: no limit).
     *
     * @throws IllegalStateException naming the status if a lookup or the start failed
     */
    public static AudioThread start(MemorySegment table, String audioRing, String timingRing, Sweep sweep, int periodFrames,
                                    long maxPeriods) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int status = (int) START.invokeExact(out, table, arena.allocateFrom(audioRing), arena.allocateFrom(timingRing),
                    sweep.rate(), periodFrames, sweep.f0(), sweep.f1(), sweep.seconds(), maxPeriods);
            if (status != 0) {
                throw new IllegalStateException("the audio thread did not start: " + HostStatus.name(status, HOST_ERRORS)
                        + " (rings '" + audioRing + "', '" + timingRing + "', " + sweep + ", " + periodFrames + " frames)");
            }
            return new AudioThread(out.get(ADDRESS, 0), sweep, periodFrames);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String name() {
        return "built-in audio thread (clock_nanosleep)";
    }

    @Override
    public Sweep sweep() {
        return sweep;
    }

    @Override
    public int periodFrames() {
        return periodFrames;
    }

    @Override
    public Counts counts() {
        if (handle == null) {
            return last;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(STATS_SIZE, 8);
            int status = (int) STATS.invokeExact(handle, s);
            if (status != 0) {
                throw new IllegalStateException("lanehost_audio_thread_stats_get: " + HostStatus.name(status, HOST_ERRORS));
            }
            return read(s);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** True while the thread runs (it ends on {@link #close()} or after its {@code maxPeriods}). */
    public boolean running() {
        return handle != null && counts().running();
    }

    /** Stops the thread after its current period, waits for it, releases the rings. Idempotent. */
    @Override
    public void close() {
        if (handle == null) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(STATS_SIZE, 8);
            STOP.invokeExact(handle);
            int status = (int) JOIN.invokeExact(handle, s);
            handle = null;
            if (status != 0) {
                throw new IllegalStateException("lanehost_audio_thread_join: " + HostStatus.name(status, HOST_ERRORS));
            }
            last = read(s);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    private static Counts read(MemorySegment s) {
        return new Counts(s.get(JAVA_LONG, 0), s.get(JAVA_LONG, 8), s.get(JAVA_LONG, 16), s.get(JAVA_LONG, 24), 0,
                s.get(JAVA_LONG, 32), s.get(JAVA_LONG, 40), s.get(JAVA_INT, 56) != 0);
    }

    private static MethodHandle downcall(String name, FunctionDescriptor descriptor) {
        return Linker.nativeLinker().downcallHandle(LIBRARY.lookup().findOrThrow(name), descriptor);
    }
}
