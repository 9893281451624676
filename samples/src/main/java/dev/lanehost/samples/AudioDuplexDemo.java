package dev.lanehost.samples;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Audio both ways: JACK capture → capture ring → the {@link DuplexEffect} actor (gain and a one-pole low-pass) →
 * playback ring → JACK output, the real-time callback in C on rings only ({@link AudioDuplex}), beside a plain C
 * client, with a background thread making garbage. Every frame played is checked against the effect of its input
 * ({@link DuplexMonitor}); the end-to-end delay is measured from the same log.
 *
 * <p>Usage: {@code bin/sample AudioDuplexDemo [seconds, default 10] [--lead N (periods, default 3) | --adaptive]
 * [--allocate MB/s, default 0] [--warm-up seconds, default 30 or a tenth of a short run] [--out DIR, default
 * target/audio-duplex] [--wav-seconds S, default 60] [--realtime priority, default 70 | --no-realtime]}. Writes
 * {@code duplex.wav} (the output), {@code duplex.png} (ring fills and lead), jackd's log and its late-cycle lines into
 * the output directory. Exit status 1 if a frame failed the check or a frame was lost.
 */
public final class AudioDuplexDemo {
    private static final int SAMPLE_RATE = 48_000;
    private static final int PERIOD_FRAMES = 128;
    private static final int REALTIME_PRIORITY = 70;
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int DEFAULT_SECONDS = 10;

    private AudioDuplexDemo() {
    }

    /** One moment of the steady-state measurement. */
    private record Snapshot(long nanos, long effectBytes, long framesProcessed, CallbackDurations duplex, CallbackDurations plain) {
    }

    public static void main(String[] args) throws Exception {
        int seconds = DEFAULT_SECONDS;
        AudioDuplex.LeadChoice lead = AudioDuplex.LeadChoice.fixed(3);
        int allocate = 0;
        Integer warmUpArgument = null;
        Path out = Path.of("target", "audio-duplex");
        int wavSeconds = 60;
        int realtime = REALTIME_PRIORITY;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--lead" -> lead = AudioDuplex.LeadChoice.fixed(Integer.parseInt(args[++i]));
                case "--adaptive" -> lead = AudioDuplex.LeadChoice.adaptive();
                case "--allocate" -> allocate = Integer.parseInt(args[++i]);
                case "--warm-up" -> warmUpArgument = Integer.parseInt(args[++i]);
                case "--out" -> out = Path.of(args[++i]);
                case "--wav-seconds" -> wavSeconds = Integer.parseInt(args[++i]);
                case "--realtime" -> realtime = Integer.parseInt(args[++i]);
                case "--no-realtime" -> realtime = 0;
                default -> {
                    if (args[i].startsWith("-")) {
                        throw new IllegalArgumentException("unknown option " + args[i] + "; usage: AudioDuplexDemo [seconds]"
                                + " [--lead N|--adaptive] [--allocate MB/s] [--warm-up s] [--out DIR] [--wav-seconds S]"
                                + " [--realtime N|--no-realtime]");
                    }
                    seconds = Integer.parseInt(args[i]);
                }
            }
        }
        int warmUp = warmUpArgument != null ? warmUpArgument : Math.min(30, seconds / 10);
        if (seconds <= 0 || warmUp < 0 || warmUp >= seconds) {
            throw new IllegalArgumentException("the run must be positive and longer than the warm-up; got " + seconds + " s and "
                    + warmUp + " s");
        }
        String unavailable = JackAudio.unavailableReason();
        if (unavailable != null) {
            System.err.println("audio-duplex needs JACK: " + unavailable);
            System.exit(2);
        }
        String name = "lanehost-duplex-" + ProcessHandle.current().pid();
        Files.createDirectories(out);
        Path log = out.resolve(name + ".log").toAbsolutePath();
        System.out.printf("audio-duplex: %s, warm-up %d s, jackd -n %s %s -d dummy -r %d -p %d (log %s)%n",
                StatusLine.duration(seconds, DEFAULT_SECONDS, "s"), warmUp, name,
                realtime > 0 ? "-R -P " + realtime : "--no-realtime", SAMPLE_RATE, PERIOD_FRAMES, log);
        System.out.printf("JVM: %s %s, GC %s, heap max %d MiB, args %s%n", System.getProperty("java.vm.name"), Runtime.version(),
                RunReport.gcNames(), Runtime.getRuntime().maxMemory() >> 20, ManagementFactory.getRuntimeMXBean().getInputArguments());
        System.out.println("load before: " + RunReport.loadAverage());
        JackServer server;
        try {
            server = JackServer.start(name, SAMPLE_RATE, PERIOD_FRAMES, realtime, log, START_TIMEOUT);
        } catch (IOException refused) {
            if (realtime == 0) {
                throw refused;
            }
            System.out.println("jackd did not start with real-time priority " + realtime + " (" + refused.getMessage()
                    + "); falling back to --no-realtime");
            server = JackServer.start(name, SAMPLE_RATE, PERIOD_FRAMES, 0, log, START_TIMEOUT);
        }
        boolean ok;
        JackLogWatch watch = JackLogWatch.start(log);
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             AllocationLoad garbage = AllocationLoad.start(allocate);
             AudioDuplex duplex = AudioDuplex.start(runtime, abi, server.name(), lead, out.resolve("duplex.wav"), wavSeconds)) {
            ok = run(duplex, server, seconds, warmUp, garbage, out);
        } finally {
            server.close();
            watch.close();
        }
        RunReport.writeLateCycles(watch, out);
        JackServer.LateCycles duplexLate = server.lateCycles("duplex");
        JackServer.LateCycles plainLate = server.lateCycles("plain");
        JackServer.LateCycles sweepLate = server.lateCycles("sweep");
        System.out.printf("jackd late cycles (own fault: callback still running / not yet scheduled): duplex %d / %d, plain %d / %d,"
                        + " sweep %d / %d%n", duplexLate.running(), duplexLate.triggered(), plainLate.running(), plainLate.triggered(),
                sweepLate.running(), sweepLate.triggered());
        System.out.println("load after:  " + RunReport.loadAverage());
        System.exit(ok ? 0 : 1);
    }

    private static boolean run(AudioDuplex duplex, JackServer server, int seconds, int warmUp, AllocationLoad garbage, Path out)
            throws IOException {
        int rate = duplex.sampleRate();
        int period = duplex.periodFrames();
        PlaybackLead lead = duplex.lead();
        System.out.printf("lead: %s = %.2f ms of latency (%d frames); the effect ticks every %d ms%n", lead.reason(),
                lead.latencyNanos() / 1e6, (long) lead.periods() * period, AudioDuplex.TICK.toMillis());
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        DuplexPlot plot = new DuplexPlot(rate);
        long start = System.nanoTime();
        long steady = start + TimeUnit.SECONDS.toNanos(warmUp);
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long nextProgress = start + PROGRESS_NANOS;
        Snapshot first = null;
        StatusLine status = new StatusLine(System.out, start, seconds);
        for (long now = start; now < end; now = System.nanoTime()) {
            duplex.drain();
            plot.add((now - start) / 1e9, duplex.captureFillFrames(), duplex.playbackFillFrames(),
                    (long) duplex.effect().leadPeriods() * period);
            if (first == null && now >= steady) {
                first = snapshot(threads, duplex);
                status.end();
                printScheduling(server, duplex);
            }
            status.update(now, () -> String.format("callbacks %,d | xruns %d | frames checked %,d | underruns %d | capture overruns %d"
                            + " | lead %d periods", duplex.duplexClient().stats().callbacks(), duplex.duplexClient().stats().xruns(),
                    duplex.monitor().matched(), duplex.playbackUnderruns(), duplex.captureOverruns(), duplex.effect().leadPeriods()));
            if (now >= nextProgress) {
                nextProgress += PROGRESS_NANOS;
                status.end();
                JackClient.Stats d = duplex.duplexClient().stats();
                System.out.printf("  %4d s: callbacks %,d / %,d, xruns %d, frames checked %,d, underruns %d (silence %,d frames,"
                                + " late frames dropped %,d), capture overruns %d, lead %d periods, delay %d frames, load %s%n",
                        TimeUnit.NANOSECONDS.toSeconds(now - start), d.callbacks(), duplex.plainClient().stats().callbacks(), d.xruns(),
                        duplex.monitor().matched(), duplex.playbackUnderruns(), d.underrunFrames(), d.droppedLateFrames(),
                        duplex.captureOverruns(), duplex.effect().leadPeriods(), duplex.monitor().lastDelay(), RunReport.loadAverage());
            }
            LockSupport.parkNanos(STEP_NANOS); // pacing the checks and the plot, not synchronisation
        }
        status.end();
        Snapshot last = snapshot(threads, duplex);
        if (first == null) {
            first = last;
        }
        AudioDuplex.Result r = duplex.stop();
        DuplexMonitor m = duplex.monitor();
        JackClient.Stats d = r.duplex();
        long periods = (last.framesProcessed() - first.framesProcessed()) / period;
        long bytes = last.effectBytes() - first.effectBytes();
        double steadySeconds = (last.nanos() - first.nanos()) / 1e9;
        System.out.printf("%d s at %d Hz / %d frames; garbage %.1f MB/s; GC %s%n", seconds, rate, period,
                garbage == null ? 0.0 : garbage.megabytesPerSecond(), RunReport.gcActivity());
        System.out.printf("callbacks: duplex %,d, plain %,d, sweep %,d; xruns (server-wide, every client is told): duplex %d, plain %d%n",
                d.callbacks(), r.plain().callbacks(), r.sweep().callbacks(), d.xruns(), r.plain().xruns());
        System.out.printf("callback duration, steady state (after the %d s warm-up; max over the whole run):%n", warmUp);
        System.out.printf("  duplex: %s%n", RunReport.durations(last.duplex(), first.duplex()));
        System.out.printf("  plain:  %s%n", RunReport.durations(last.plain(), first.plain()));
        System.out.printf("lead: %s (%d periods at the end = %.2f ms); the effect inserted %,d frames of silence in %d insertions"
                        + " (the first primes the lead)%n", duplex.effect().leadReason(), duplex.effect().leadPeriods(),
                duplex.effect().leadPeriods() * (double) period * 1e3 / rate, r.silenceFrames(), duplex.effect().insertions());
        long periodNanos = TimeUnit.SECONDS.toNanos(1) * period / rate;
        long worst = duplex.effect().maxLateNanos();
        System.out.printf("the effect's worst stall: a tick %.2f ms late; a lead covering it and a tick is %d periods%n", worst / 1e6,
                (worst + AudioDuplex.TICK.toNanos() + periodNanos - 1) / periodNanos + 1);
        System.out.printf("end-to-end delay, input to output (measured per frame): first %d frames (%.2f ms), last %d, min %d,"
                        + " max %d; expected last %d (first + silence played since - input dropped - late frames dropped)%n", m.firstDelay(),
                m.firstDelay() * 1e3 / rate, m.lastDelay(), m.minDelay(), m.maxDelay(), m.expectedDelay());
        System.out.printf("playback underruns %d (callbacks that played silence: %,d frames), capture overruns %d, monitor periods"
                        + " dropped %d%n", r.playbackUnderruns(), d.underrunFrames(), r.captureOverruns(), r.monitorOverruns());
        System.out.printf("dropped late frames %,d (the effect's output for the slots that silence filled, thrown away so the"
                        + " delay stays the lead; still owed %,d)%n", d.droppedLateFrames(), d.underrunFrames() - d.droppedLateFrames());
        System.out.printf("frames: captured %,d (callback) / %,d (monitor), processed by the effect %,d, played from the ring %,d"
                        + " (%,d effect output checked bit for bit, %,d inserted silence), dropped late %,d, left in the playback ring %,d;"
                        + " wrong %d%s%n",
                d.samplesWritten(), m.captured(), r.framesProcessed(), m.played(), m.matched(), m.insertedPlayed(), m.droppedLate(),
                r.playbackLeft(), m.mismatches(), m.firstMismatch() == null ? "" : " (first: " + m.firstMismatch() + ")");
        System.out.printf("effect thread '%s': %,d bytes allocated over %,d periods processed in the steady state (%.1f s) = %.3f B/period%s%n",
                duplex.effect().turnThread().getName(), bytes, periods, steadySeconds, periods == 0 ? 0.0 : (double) bytes / periods,
                warmUp == 0 ? " (no warm-up in a run this short: the first periods' one-time allocations are counted)" : "");
        String title = String.format("audio-duplex: ring fills and lead (%s, %d frames at %d Hz)", duplex.lead().brief(), period, rate);
        Path png = out.resolve("duplex.png");
        try {
            plot.render(title, png);
            System.out.printf("wrote %s and %s%n", out.resolve("duplex.wav"), png);
        } catch (Error | RuntimeException e) {
            System.out.println("no plot (a headless JDK needs fonts: apt-get install fontconfig fonts-dejavu-core): " + e);
        }
        boolean lost = d.samplesWritten() != m.captured() || m.captured() != r.framesProcessed()
                || m.matched() + m.insertedPlayed() + m.droppedLate() + r.playbackLeft() != r.framesProcessed() + r.silenceFrames()
                || m.droppedLate() != d.droppedLateFrames() || m.underrunFrames() != d.underrunFrames()
                || r.monitorOverruns() != 0 || r.lostInsertions() != 0;
        if (lost) {
            System.out.println("FRAMES LOST: captured, processed, played and dropped late (plus what was left) do not add up");
        }
        return m.mismatches() == 0 && !lost && m.lastDelay() == m.expectedDelay();
    }

    private static Snapshot snapshot(com.sun.management.ThreadMXBean threads, AudioDuplex duplex) {
        Thread thread = duplex.effect().turnThread();
        // frames first: whatever the effect allocates while the snapshot is taken falls into this interval, not outside it
        long frames = duplex.effect().framesProcessed();
        long bytes = threads.getThreadAllocatedBytes(thread.threadId());
        return new Snapshot(System.nanoTime(), bytes, frames, duplex.duplexClient().durations(), duplex.plainClient().durations());
    }

    private static void printScheduling(JackServer server, AudioDuplex duplex) {
        try {
            long duplexThread = duplex.duplexClient().stats().processThreadId();
            long plainThread = duplex.plainClient().stats().processThreadId();
            System.out.printf("scheduling (read back): duplex process thread %d %s, plain process thread %d %s; jackd (asked for %s): %s%n",
                    duplexThread, ThreadScheduling.ofOwnThread(duplexThread), plainThread, ThreadScheduling.ofOwnThread(plainThread),
                    server.realtimePriority() > 0 ? "-R -P " + server.realtimePriority() : "--no-realtime", server.threadScheduling());
        } catch (IOException | RuntimeException e) {
            System.out.println("scheduling: could not read it back: " + e);
        }
    }
}
