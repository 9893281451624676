package dev.lanehost.samples;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostRing;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * An audio host in C, control logic in Java: the JACK host's process callback ({@code jack_host.c}) drives the
 * lane "audio" with a small turn bound and writes a 440 Hz sine into the ring "audio-out" without entering the
 * JVM; a Java thread reads the ring and checks every sample. A plain C client runs beside it, and the two
 * clients' callbacks and xruns are compared. Halfway through, the lanehost client is deactivated and
 * activated again, so JACK moves its process callback to a new thread.
 *
 * <p>Usage: {@code java -cp samples/target/lanehost-demo.jar dev.lanehost.samples.JackHostDemo [seconds, default 10]
 * [--server NAME (an already running JACK server; default: start a private jackd with the dummy driver)]
 * [--allocate MB/s (garbage a background thread makes, default 0)]}
 */
public final class JackHostDemo {
    private static final int SAMPLE_RATE = 48_000;
    private static final int PERIOD_FRAMES = 128;
    private static final int MAX_TURNS = 8;
    private static final double FREQUENCY = 440;
    /** 4 MiB: 21 s of float audio at 48 kHz, so a reader paused by the GC never makes the callback drop a period. */
    private static final long RING_CAPACITY = 4L << 20;
    /** Control messages a second from Java to the lane's actor. */
    private static final int MESSAGES_PER_SECOND = 200;
    private static final int DEFAULT_SECONDS = 10;

    private JackHostDemo() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = DEFAULT_SECONDS;
        String serverName = null;
        int allocateMegabytesPerSecond = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--server" -> serverName = args[++i];
                case "--allocate" -> allocateMegabytesPerSecond = Integer.parseInt(args[++i]);
                default -> seconds = Integer.parseInt(args[i]);
            }
        }
        String unavailable = JackClient.unavailableReason();
        if (unavailable != null) {
            System.err.println(unavailable);
            System.exit(2);
        }
        JackServer server = null;
        if (serverName == null) {
            serverName = "lanehost-demo-" + ProcessHandle.current().pid();
            server = startServer(serverName);
        }
        try {
            run(serverName, seconds, allocateMegabytesPerSecond);
        } finally {
            if (server != null) {
                server.close();
                JackServer.LateCycles lanehost = server.lateCycles("lanehost");
                JackServer.LateCycles plain = server.lateCycles("plain");
                System.out.printf("jackd's log (%s): cycles a client had not finished at the deadline, its callback still running"
                                + " (its own fault) / not yet scheduled: lanehost %d / %d, plain %d / %d%n",
                        server.log(), lanehost.running(), lanehost.triggered(), plain.running(), plain.triggered());
            }
        }
    }

    private static JackServer startServer(String name) throws IOException {
        Path log = Path.of(System.getProperty("java.io.tmpdir"), name + ".log");
        System.out.printf("starting jackd -n %s --no-realtime -d dummy -r %d -p %d (log %s)%n", name, SAMPLE_RATE, PERIOD_FRAMES, log);
        return JackServer.start(name, SAMPLE_RATE, PERIOD_FRAMES, log, Duration.ofSeconds(30));
    }

    private static void run(String serverName, int seconds, int allocateMegabytesPerSecond) throws InterruptedException {
        AtomicLong handled = new AtomicLong();
        AtomicBoolean running = new AtomicBoolean(true);
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             HostRing ring = abi.exportRing("audio-out", RING_CAPACITY)) {
            ExecutionLane lane = runtime.registerLane("audio");
            abi.exportLane(lane);
            ActorRef synth = runtime.spawnOnLane("audio", "synth", () -> (context, message) -> handled.incrementAndGet());
            Thread garbage = allocator(allocateMegabytesPerSecond, running);
            try (JackClient host = JackClient.openLaneHost(abi.table(), serverName, "lanehost", "audio", "audio-out", MAX_TURNS, FREQUENCY);
                 JackClient plain = JackClient.openPlain(serverName, "plain")) {
                SineCheck check = new SineCheck(ring.ring(), FREQUENCY, host.stats().sampleRate());
                Thread reader = Thread.ofPlatform().name("ring-reader").start(() -> {
                    while (running.get()) {
                        check.drain();
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                    }
                    check.drain();
                });
                plain.activate();
                host.activate();
                System.out.printf("jack-host: %s; status line, twice a second: both clients' callbacks, xruns, messages"
                        + " sent to / handled on the lane, ring samples read and checked%n", StatusLine.duration(seconds, DEFAULT_SECONDS, "s"));
                long sent = 0;
                long start = System.nanoTime();
                long end = start + TimeUnit.SECONDS.toNanos(seconds);
                StatusLine status = new StatusLine(System.out, start, seconds);
                boolean cycled = false;
                for (long now = start; now < end; now = System.nanoTime()) {
                    if (!cycled && now - start > (end - start) / 2) {
                        host.deactivate();
                        host.activate();
                        cycled = true;
                        status.end();
                        System.out.println("deactivated and activated the lanehost client: JACK moved its process callback");
                    }
                    long messages = sent;
                    status.update(now, () -> String.format("callbacks %,d / %,d (lanehost / plain) | xruns %d | messages %,d / %,d"
                            + " | samples read %,d", host.stats().callbacks(), plain.stats().callbacks(), plain.stats().xruns(), messages,
                            handled.get(), check.samples()));
                    synth.tell(sent++);
                    LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1) / MESSAGES_PER_SECOND); // pacing, not synchronisation
                }
                status.end();
                host.deactivate();
                plain.deactivate();
                running.set(false);
                reader.join();
                if (garbage != null) {
                    garbage.join();
                }
                JackClient.Stats h = host.stats();
                JackClient.Stats p = plain.stats();
                System.out.printf("%d s at %d Hz / %d frames, %d MB/s of garbage, GC %s%n", seconds, h.sampleRate(), h.periodFrames(),
                        allocateMegabytesPerSecond, java.lang.management.ManagementFactory.getGarbageCollectorMXBeans().stream()
                                .map(java.lang.management.GarbageCollectorMXBean::getName).toList());
                System.out.printf("lanehost client: %,d callbacks, %d xruns, %d ring overruns, %d process threads, drives %,d OK / %d failed"
                                + " (first: %s), %,d turns (max %d a drive), slowest drive %.2f ms, %d drives longer than a period%n",
                        h.callbacks(), h.xruns(), h.ringOverruns(), h.processThreads(), h.drivesOk(), h.driveFailures(),
                        h.firstDriveFailure() == 0 ? "none" : JackClient.statusName(h.firstDriveFailure()), h.turns(), h.maxTurnsSeen(),
                        h.maxDriveNanos() / 1e6, h.slowDrives());
                System.out.printf("plain client:    %,d callbacks, %d xruns (JACK tells every client of every xrun)%n",
                        p.callbacks(), p.xruns());
                System.out.printf("messages: %,d sent, %,d handled on the lane (bound to %s)%n", sent, handled.get(),
                        lane.boundThread() == null ? "no thread" : lane.boundThread().getName());
                System.out.printf("ring: %,d samples written, %,d read, first wrong sample %s%n", h.samplesWritten(), check.samples(),
                        check.firstMismatch() < 0 ? "none" : check.firstMismatch() + " (" + check.mismatchValue() + ")");
            } finally {
                running.set(false);
            }
        }
    }

    /** A thread making {@code megabytesPerSecond} of short-lived garbage, to put the GC to work; null for 0. */
    private static Thread allocator(int megabytesPerSecond, AtomicBoolean running) {
        if (megabytesPerSecond <= 0) {
            return null;
        }
        return Thread.ofPlatform().daemon().name("garbage").start(() -> {
            long pause = TimeUnit.SECONDS.toNanos(1) / megabytesPerSecond;
            long sink = 0;
            while (running.get()) {
                byte[] garbage = new byte[1 << 20];
                sink += garbage.length;
                LockSupport.parkNanos(pause);
            }
            if (sink == 42) {
                System.out.print(""); // keeps the allocation observable
            }
        });
    }
}
