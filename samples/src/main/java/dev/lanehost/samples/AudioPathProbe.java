package dev.lanehost.samples;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallResult;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostRing;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Measures the audio path through the host ABI for minutes, in one of two architectures, each beside a plain C JACK
 * client in the same private jackd (dummy driver, 48 kHz / 128 frames), with a background thread making garbage:
 *
 * <ul>
 *   <li><b>ring-only</b> (default; what lanehost recommends): the JACK host's ring client ({@link JackClient#openRing})
 *       writes a sweep and timing records into rings and never enters the JVM; the {@link AudioConsumer} actor plays
 *       the ring on the runtime's worker, 20 ms behind, and checks every sample.</li>
 *   <li><b>lane-driving</b> ({@code --lane-driving}): the lanehost client ({@link JackClient#openLaneHost}) drives the
 *       lane "audio" (turn bound 8, 200 messages a second from Java) and writes a sine into the ring; a plain Java
 *       thread plays the ring the same way ({@link PlaybackClock}, {@link SineCheck#read}).</li>
 * </ul>
 *
 * It reports both clients' callbacks, xruns and callback durations (timed in C), jackd's late cycles per client
 * (own fault / not yet scheduled), the server's lost cycles (fewer cycles than the wall clock asks for), ring
 * overruns and underruns (the reader found less than the producer's own clock said was written; see
 * {@link PlaybackClock}), the consumer thread's allocation per period over the steady state (after the warm-up,
 * until the clients stop), the scheduling policy its process threads really got, and the lanehost client's slow
 * callbacks with their start times (to line up with {@code -Xlog:...:timenanos}).
 *
 * <p>jackd runs with real-time scheduling ({@code -R -P 70}) unless {@code --no-realtime} is given; when it cannot
 * start that way the probe says why and falls back to {@code --no-realtime}.
 *
 * <p>Usage: {@code java -XX:+UseZGC -Xms1g -Xmx1g -XX:+AlwaysPreTouch --enable-native-access=ALL-UNNAMED
 * -cp samples/target/lanehost-demo.jar dev.lanehost.samples.AudioPathProbe [seconds, default 600] [--lane-driving]
 * [--allocate MB/s, default 100] [--warm-up seconds, default 30 or a tenth of a short run] [--log DIR, default target/audio-path]
 * [--realtime priority, default 70 | --no-realtime] [--warm-drives N: lane-driving only, N real drives of a scratch lane
 * from an ordinary C thread before the clients are activated, default 0] [--reactivate: lane-driving only, deactivate
 * and activate the lanehost client half-way, so a new JACK thread rebinds the lane]}
 *
 * <p>Lane-driving runs also report the first drive after each activation (the new process thread's first) and the
 * slowest drive of the first second after it, timed in C around {@code lane_drive}.
 */
public final class AudioPathProbe {
    private static final int SAMPLE_RATE = 48_000;
    private static final int PERIOD_FRAMES = 128;
    private static final long AUDIO_RING_BYTES = 4L << 20;
    private static final long TIMING_RING_BYTES = 1L << 20;
    private static final int MAX_TURNS = 8;
    private static final double FREQUENCY = 440;
    private static final int MESSAGES_PER_SECOND = 200;
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final long PROGRESS_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final long STEP_NANOS = TimeUnit.MILLISECONDS.toNanos(100);
    /** jackd's real-time priority by default: JACK's own default range, above any other real-time thread here. */
    private static final int REALTIME_PRIORITY = 70;

    /** Ten minutes: long enough for the rare late callback to show. */
    static final int DEFAULT_SECONDS = 600;

    private AudioPathProbe() {
    }

    /** One moment of the steady-state measurement. */
    private record Snapshot(long nanos, long consumerBytes, long samples, long plainCallbacks, CallbackDurations probe,
                            CallbackDurations plain) {
    }

    public static void main(String[] args) throws Exception {
        int seconds = DEFAULT_SECONDS;
        boolean laneDriving = false;
        int allocate = 100;
        Integer warmUpArgument = null;
        Path logDirectory = Path.of("target", "audio-path");
        int realtime = REALTIME_PRIORITY;
        int warmDrives = 0;
        boolean reactivate = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--lane-driving" -> laneDriving = true;
                case "--ring-only" -> laneDriving = false;
                case "--allocate" -> allocate = Integer.parseInt(args[++i]);
                case "--warm-up" -> warmUpArgument = Integer.parseInt(args[++i]);
                case "--log" -> logDirectory = Path.of(args[++i]);
                case "--realtime" -> realtime = Integer.parseInt(args[++i]);
                case "--no-realtime" -> realtime = 0;
                case "--warm-drives" -> warmDrives = Integer.parseInt(args[++i]);
                case "--reactivate" -> reactivate = true;
                default -> seconds = Integer.parseInt(args[i]);
            }
        }
        int warmUp = warmUpArgument != null ? warmUpArgument : Math.min(30, seconds / 10); // as AudioDuplexDemo
        if (warmUp >= seconds) {
            throw new IllegalArgumentException("the warm-up (" + warmUp + " s) must be shorter than the run (" + seconds + " s)");
        }
        String unavailable = JackAudio.unavailableReason();
        if (unavailable != null) {
            System.err.println(unavailable);
            System.exit(2);
        }
        String name = "lanehost-audio-path-" + ProcessHandle.current().pid();
        Path log = logDirectory.resolve(name + ".log").toAbsolutePath();
        System.out.printf("audio path, %s: %s, warm-up %d s, jackd -n %s %s -d dummy -r %d -p %d (log %s)%n",
                laneDriving ? "lane-driving" : "ring-only", StatusLine.duration(seconds, DEFAULT_SECONDS, "s"), warmUp, name, realtime > 0 ? "-R -P " + realtime : "--no-realtime",
                SAMPLE_RATE, PERIOD_FRAMES, log);
        System.out.printf("JVM: %s %s, GC %s, heap max %d MiB, args %s%n", System.getProperty("java.vm.name"),
                Runtime.version(), RunReport.gcNames(), Runtime.getRuntime().maxMemory() >> 20,
                ManagementFactory.getRuntimeMXBean().getInputArguments());
        System.out.println("load before: " + RunReport.loadAverage());
        Files.createDirectories(log.getParent());
        JackServer server;
        try {
            server = JackServer.start(name, SAMPLE_RATE, PERIOD_FRAMES, realtime, log, TIMEOUT);
        } catch (IOException refused) {
            if (realtime == 0) {
                throw refused;
            }
            System.out.println("jackd did not start with real-time priority " + realtime + " (" + refused.getMessage()
                    + "); falling back to --no-realtime");
            server = JackServer.start(name, SAMPLE_RATE, PERIOD_FRAMES, 0, log, TIMEOUT);
        }
        boolean ok;
        JackLogWatch watch = JackLogWatch.start(log);
        try {
            ok = run(server, laneDriving, seconds, warmUp, allocate, logDirectory, warmDrives, reactivate);
        } finally {
            server.close();
            watch.close();
        }
        RunReport.writeLateCycles(watch, logDirectory);
        JackServer.LateCycles lanehost = server.lateCycles("lanehost");
        JackServer.LateCycles plain = server.lateCycles("plain");
        System.out.printf("jackd late cycles (own fault: callback still running / not yet scheduled): lanehost %d / %d, plain %d / %d%n",
                lanehost.running(), lanehost.triggered(), plain.running(), plain.triggered());
        System.out.println("load after:  " + RunReport.loadAverage());
        System.exit(ok ? 0 : 1);
    }

    private static boolean run(JackServer server, boolean laneDriving, int seconds, int warmUp, int allocate, Path logDirectory,
                               int warmDrives, boolean reactivate) throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             AllocationLoad garbage = AllocationLoad.start(allocate)) {
            Setting setting = new Setting(server, seconds, warmUp, garbage, logDirectory, warmDrives, reactivate);
            return laneDriving ? laneDriving(runtime, abi, setting) : ringOnly(runtime, abi, setting);
        }
    }

    /** What every run shares: the server, how long, the garbage thread, where files go. */
    private record Setting(JackServer server, int seconds, int warmUp, AllocationLoad garbage, Path logDirectory, int warmDrives,
                           boolean reactivate) {
    }

    private static boolean ringOnly(ActorRuntime runtime, HostAbi abi, Setting setting) throws InterruptedException {
        String serverName = setting.server().name();
        try (HostRing audio = abi.exportRing(AudioRing.AUDIO_RING, AUDIO_RING_BYTES);
             HostRing timing = abi.exportRing(AudioRing.TIMING_RING, TIMING_RING_BYTES);
             JackClient probe = JackClient.openRing(abi.table(), serverName, "lanehost", AudioRing.AUDIO_RING, AudioRing.TIMING_RING,
                     AudioRingDemo.SWEEP.f0(), AudioRingDemo.SWEEP.f1(), AudioRingDemo.SWEEP.seconds());
             JackClient plain = JackClient.openPlain(serverName, "plain")) {
            Sweep sweep = Sweep.of(AudioRingDemo.SWEEP.f0(), AudioRingDemo.SWEEP.f1(), probe.stats().sampleRate(),
                    AudioRingDemo.SWEEP.seconds());
            plain.activate();
            probe.activate();
            // The timing records are read (a full timing ring would drop them) but not kept: a kept record would grow
            // arrays in the consumer's turns, and a ten-minute run is too long to plot.
            AudioConsumer consumer = new AudioConsumer(audio.ring(), AudioTiming.keepingFirst(timing.ring(), 0), sweep, null);
            ActorRef ref = AudioActors.spawn(runtime, "audio-consumer", consumer);
            try (CallGate finish = CallGate.open(ref, (context, arguments) -> consumer.finish())) {
                ProbeConsumer measured = new ProbeConsumer() {
                    @Override
                    public Thread thread() {
                        return consumer.turnThread();
                    }

                    @Override
                    public long samples() {
                        return consumer.samples();
                    }

                    @Override
                    public long underruns() {
                        return consumer.underruns();
                    }

                    @Override
                    public long firstMismatch() {
                        return consumer.firstMismatch();
                    }

                    @Override
                    public void finish() {
                        CallResult result = finish.call(null, TIMEOUT);
                        if (!result.isOk()) {
                            throw new IllegalStateException("the audio consumer did not finish: " + result.status() + " " + result.detail());
                        }
                    }
                };
                boolean ok = measure(probe, plain, measured, setting,
                        () -> LockSupport.parkNanos(STEP_NANOS)); // pacing the clock checks, not synchronisation
                System.out.printf("timing records: %,d read (one a period), %d dropped because the timing ring was full%n",
                        consumer.timing().read(), probe.stats().timingOverruns());
                return ok;
            } finally {
                ref.kill();
            }
        }
    }

    private static boolean laneDriving(ActorRuntime runtime, HostAbi abi, Setting setting) throws InterruptedException {
        String serverName = setting.server().name();
        AtomicLong handled = new AtomicLong();
        AtomicLong sent = new AtomicLong();
        try (HostRing audio = abi.exportRing("audio-out", AUDIO_RING_BYTES)) {
            ExecutionLane lane = runtime.registerLane("audio");
            abi.exportLane(lane);
            ActorRef synth = runtime.spawnOnLane("audio", "synth", () -> (context, message) -> handled.incrementAndGet());
            try (JackClient probe = JackClient.openLaneHost(abi.table(), serverName, "lanehost", "audio", "audio-out", MAX_TURNS, FREQUENCY);
                 JackClient plain = JackClient.openPlain(serverName, "plain")) {
                int rate = probe.stats().sampleRate();
                SineCheck check = new SineCheck(audio.ring(), FREQUENCY, rate);
                AtomicBoolean playing = new AtomicBoolean(true);
                AtomicLong underruns = new AtomicLong();
                if (setting.warmDrives() > 0) {
                    DriveWarmUp.run(runtime, abi, probe, setting.warmDrives());
                }
                plain.activate();
                probe.activate();
                Thread reader = Thread.ofPlatform().name("ring-reader").start(() -> {
                    PlaybackClock clock = new PlaybackClock(AudioConsumer.LATENCY, rate);
                    while (playing.get()) {
                        // The producer's clock first: the ring holds at least what it says (acquire in C).
                        long due = clock.due(probe.samplesWritten(), check.samples());
                        if (due > 0 && check.read(due) < due) {
                            underruns.incrementAndGet();
                        }
                        LockSupport.parkNanos(AudioConsumer.TICK.toNanos()); // a sound card's tick, not synchronisation
                    }
                    check.read(Long.MAX_VALUE);
                });
                ProbeConsumer measured = new ProbeConsumer() {
                    @Override
                    public Thread thread() {
                        return reader;
                    }

                    @Override
                    public long samples() {
                        return check.samples();
                    }

                    @Override
                    public long underruns() {
                        return underruns.get();
                    }

                    @Override
                    public long firstMismatch() {
                        return check.firstMismatch();
                    }

                    @Override
                    public void finish() {
                        playing.set(false);
                        try {
                            reader.join();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            throw new IllegalStateException("interrupted while the ring reader finished", e);
                        }
                    }
                };
                long pace = TimeUnit.SECONDS.toNanos(1) / MESSAGES_PER_SECOND;
                long reactivateAt = setting.reactivate() ? System.nanoTime() + TimeUnit.SECONDS.toNanos(setting.seconds()) / 2 : Long.MAX_VALUE;
                JackClient.Stats[] beforeReactivation = new JackClient.Stats[1];
                boolean ok = measure(probe, plain, measured, setting, () -> {
                    synth.tell(sent.getAndIncrement());
                    if (beforeReactivation[0] == null && System.nanoTime() >= reactivateAt) {
                        beforeReactivation[0] = probe.stats();
                        probe.deactivate(); // JACK ends the process thread; the next activation's new thread rebinds the lane
                        probe.activate();
                        System.out.println("  lanehost client deactivated and activated again: a new process thread");
                    }
                    LockSupport.parkNanos(pace); // pacing, not synchronisation
                });
                JackClient.Stats s = probe.stats();
                if (beforeReactivation[0] != null) {
                    RunReport.printFirstDrives("first activation", beforeReactivation[0]);
                    RunReport.printFirstDrives("after deactivate/activate", s);
                } else {
                    RunReport.printFirstDrives("after activation", s);
                }
                System.out.printf("lane: %,d messages sent, %,d handled on the lane; drives %,d OK / %d failed, %,d turns (max %d a drive),"
                                + " slowest drive %.2f ms, %d drives longer than a period%n",
                        sent.get(), handled.get(), s.drivesOk(), s.driveFailures(), s.turns(), s.maxTurnsSeen(), s.maxDriveNanos() / 1e6,
                        s.slowDrives());
                return ok && s.driveFailures() == 0;
            }
        }
    }

    /**
     * Runs for {@code seconds} (calling {@code step}, which paces itself, in a loop on this thread), snapshots at the end of the warm-up
     * and before the clients stop, then stops both clients, finishes the consumer and prints the results.
     *
     * @return true if no sample was wrong and every sample written was read
     */
    private static boolean measure(JackClient probe, JackClient plain, ProbeConsumer consumer, Setting setting, Runnable step) {
        int seconds = setting.seconds();
        int warmUp = setting.warmUp();
        AllocationLoad garbage = setting.garbage();
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long start = System.nanoTime();
        long steady = start + TimeUnit.SECONDS.toNanos(warmUp);
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        long nextProgress = start + PROGRESS_NANOS;
        Snapshot first = null;
        StatusLine status = new StatusLine(System.out, start, seconds);
        for (long now = start; now < end; now = System.nanoTime()) {
            if (first == null && now >= steady) {
                first = snapshot(threads, consumer, probe, plain);
                status.end();
                RunReport.printScheduling(setting.server(), probe, plain);
            }
            status.update(now, () -> String.format("callbacks %,d / %,d (lanehost / plain) | xruns %d | samples read %,d | under/over %d/%d",
                    probe.stats().callbacks(), plain.stats().callbacks(), plain.stats().xruns(), consumer.samples(), consumer.underruns(),
                    probe.stats().ringOverruns()));
            if (now >= nextProgress) {
                nextProgress += PROGRESS_NANOS;
                status.end();
                System.out.printf("  %4d s: callbacks %,d / %,d, xruns %d, samples read %,d, underruns %d, overruns %d, load %s%n",
                        TimeUnit.NANOSECONDS.toSeconds(now - start), probe.stats().callbacks(), plain.stats().callbacks(), plain.stats().xruns(),
                        consumer.samples(), consumer.underruns(), probe.stats().ringOverruns(), RunReport.loadAverage());
            }
            step.run();
        }
        status.end();
        Snapshot last = snapshot(threads, consumer, probe, plain);
        probe.deactivate();
        plain.deactivate();
        consumer.finish();
        JackClient.Stats p = probe.stats();
        JackClient.Stats c = plain.stats();
        long periods = (last.samples() - first.samples()) / PERIOD_FRAMES;
        long bytes = last.consumerBytes() - first.consumerBytes();
        System.out.printf("%d s at %d Hz / %d frames; garbage %.1f MB/s; GC %s%n", seconds, p.sampleRate(), p.periodFrames(),
                garbage == null ? 0.0 : garbage.megabytesPerSecond(), RunReport.gcActivity());
        System.out.printf("callbacks: lanehost %,d, plain %,d; xruns (server-wide, every client is told): lanehost %d, plain %d%n",
                p.callbacks(), c.callbacks(), p.xruns(), c.xruns());
        System.out.printf("callback duration, steady state (after the %d s warm-up; max over the whole run):%n", warmUp);
        System.out.printf("  lanehost: %s%n", RunReport.durations(last.probe(), first.probe()));
        System.out.printf("  plain:    %s%n", RunReport.durations(last.plain(), first.plain()));
        long samplesWritten = p.samplesWritten();
        System.out.printf("server cycles lost (the wall clock asked for more than the plain client ran): %,d in the steady state"
                        + " (%.1f s), %,d over the whole run%n",
                PlaybackClock.lostCycles(last.nanos() - first.nanos(), last.plainCallbacks() - first.plainCallbacks(), p.sampleRate(), p.periodFrames()),
                (last.nanos() - first.nanos()) / 1e9, PlaybackClock.lostCycles(last.nanos() - start, last.plainCallbacks(), p.sampleRate(), p.periodFrames()));
        System.out.printf("ring: %,d samples written, %,d read, first wrong sample %s; %d ring overruns, %d underruns"
                        + " (ticks that found less than the producer's clock said was written, less %d ms)%n", samplesWritten,
                consumer.samples(), consumer.firstMismatch() < 0 ? "none" : Long.toString(consumer.firstMismatch()), p.ringOverruns(),
                consumer.underruns(), AudioConsumer.LATENCY.toMillis());
        System.out.printf("consumer thread '%s': %,d bytes allocated over %,d periods consumed in the steady state (%.1f s) = %.3f B/period%n",
                consumer.thread().getName(), bytes, periods, (last.nanos() - first.nanos()) / 1e9, periods == 0 ? 0.0 : (double) bytes / periods);
        RunReport.printSlowCallbacks(probe, setting.logDirectory(), TimeUnit.SECONDS.toNanos(1) * PERIOD_FRAMES / SAMPLE_RATE);
        return consumer.firstMismatch() < 0 && consumer.samples() == samplesWritten;
    }

    private static Snapshot snapshot(com.sun.management.ThreadMXBean threads, ProbeConsumer consumer, JackClient probe, JackClient plain) {
        Thread thread = consumer.thread();
        if (thread == null) {
            throw new IllegalStateException("the consumer has not run a turn by the end of the warm-up");
        }
        // samples first: whatever the consumer allocates while the snapshot is taken falls into this interval, not outside it
        long samples = consumer.samples();
        long bytes = threads.getThreadAllocatedBytes(thread.threadId());
        return new Snapshot(System.nanoTime(), bytes, samples, plain.stats().callbacks(), probe.durations(), plain.durations());
    }
}
