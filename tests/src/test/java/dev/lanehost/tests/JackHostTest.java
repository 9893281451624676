package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostRing;
import dev.lanehost.samples.JackClient;
import dev.lanehost.samples.JackServer;
import dev.lanehost.samples.SineCheck;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The JACK host ({@code samples/src/main/c/jack_host.c}) on a private jackd with the dummy driver: its process
 * callback drives a lane through the host ABI table and writes a sine into a lanehost ring; a plain C client
 * runs beside it. Needs jackd (Debian: jackd2) and the JACK host library (built when libjack-jackd2-dev is
 * installed); without them the test is skipped and says why.
 */
class JackHostTest {
    private static final int SAMPLE_RATE = 48_000;
    private static final int PERIOD_FRAMES = 128;
    private static final int MAX_TURNS = 8;
    private static final double FREQUENCY = 440;
    /** 4 MiB: 21 s of float audio, longer than the test runs, so the callback never has to drop a period. */
    private static final long RING_CAPACITY = 4L << 20;
    private static final int MESSAGES = 1000;
    /** About two seconds of process callbacks after the cycle, so the new thread runs for a while. */
    private static final long CALLBACKS_AFTER_CYCLE = 2L * SAMPLE_RATE / PERIOD_FRAMES;
    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private record Handled(long message, long threadId, Thread thread) {
    }

    @Test
    void jacksProcessCallbackHandlesEveryMessageOnceFollowsTheCallbackToItsNewThreadAndFillsTheRingWithTheSine()
            throws Exception {
        String unavailable = JackClient.unavailableReason();
        assumeTrue(unavailable == null, unavailable);
        assumeTrue(JackServer.jackd().isPresent(), "jackd is not on the PATH (Debian: apt-get install jackd2)");
        String name = "lanehost-test-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        JackServer server;
        try {
            server = JackServer.start(name, SAMPLE_RATE, PERIOD_FRAMES, Path.of("target", "jack", name + ".log"), DEADLINE);
        } catch (IOException e) {
            assumeTrue(false, "jackd could not start: " + e.getMessage());
            return;
        }
        List<Handled> handled = new CopyOnWriteArrayList<>();
        try (server;
             ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             HostRing ring = abi.exportRing("audio-out", RING_CAPACITY)) {
            ExecutionLane lane = runtime.registerLane("audio");
            abi.exportLane(lane);
            ActorRef synth = runtime.spawnOnLane("audio", "synth", () -> (context, message) ->
                    handled.add(new Handled((Long) message, KernelThreadId.current(), Thread.currentThread())));

            try (JackClient host = JackClient.openLaneHost(abi.table(), name, "lanehost", "audio", "audio-out", MAX_TURNS, FREQUENCY);
                 JackClient plain = JackClient.openPlain(name, "plain")) {
                SineCheck sine = new SineCheck(ring.ring(), FREQUENCY, host.stats().sampleRate());
                plain.activate();
                host.activate();
                await("both clients called back and the lane driven", sine, host,
                        () -> host.stats().drivesOk() > 0 && plain.stats().callbacks() > 0);

                for (long i = 0; i < MESSAGES / 2; i++) {
                    synth.tell(i);
                }
                await("the first half handled", sine, host, () -> handled.size() >= MESSAGES / 2);
                long firstThread = host.stats().processThreadId();

                host.deactivate(); // JACK ends the process thread ...
                host.activate();   // ... and starts a new one
                for (long i = MESSAGES / 2; i < MESSAGES; i++) {
                    synth.tell(i);
                }
                // Needs the lane to rebind to JACK's new process thread once the old one has ended.
                await("the second half handled after the cycle (the lane rebinds to the new process thread)", sine, host,
                        () -> handled.size() >= MESSAGES || host.stats().shutDown());
                long cycledAt = host.stats().callbacks();
                await("two more seconds of callbacks", sine, host, () -> host.stats().callbacks() >= cycledAt + CALLBACKS_AFTER_CYCLE
                        || host.stats().shutDown());
                host.deactivate();
                plain.deactivate();
                sine.drain();

                JackClient.Stats h = host.stats();
                JackClient.Stats p = plain.stats();
                JackServer.LateCycles hostLate = server.lateCycles("lanehost");
                JackServer.LateCycles plainLate = server.lateCycles("plain");
                System.out.printf("JackHostTest: lanehost client %,d callbacks, %d xruns, %d ring overruns, drives %,d OK / %d failed "
                                + "(first %s), %,d turns, slowest drive %.2f ms, late cycles (own / not scheduled) %d / %d; "
                                + "plain client %,d callbacks, %d xruns, late cycles %d / %d; jackd log %s%n",
                        h.callbacks(), h.xruns(), h.ringOverruns(), h.drivesOk(), h.driveFailures(),
                        JackClient.statusName(h.firstDriveFailure()), h.turns(), h.maxDriveNanos() / 1e6, hostLate.running(),
                        hostLate.triggered(), p.callbacks(), p.xruns(), plainLate.running(), plainLate.triggered(), server.log());

                assertFalse(h.shutDown() || p.shutDown(), "JACK shut a client down (see " + server.log() + ")");
                assertEquals(LongStream.range(0, MESSAGES).boxed().toList(), handled.stream().map(Handled::message).toList(),
                        "every message handled once, in the order sent");
                assertTrue(h.maxTurnsSeen() <= MAX_TURNS, "a drive ran " + h.maxTurnsSeen() + " turns");
                assertEquals(2, h.activations());
                assertTrue(h.threadInits() >= 2, "thread-init ran for each activation's thread: " + h.threadInits());
                assertEquals(0, h.warmUpFailures(), "thread_warm_up from JACK's thread-init callback");

                // The lane follows the callback: JACK moved it to a new thread, and the lane rebound to it.
                assertEquals(2, h.processThreads(), "JACK ran the process callback on a new thread after the cycle");
                long secondThread = h.processThreadId();
                assertNotEquals(firstThread, secondThread);
                List<Handled> before = handled.subList(0, MESSAGES / 2);
                List<Handled> after = handled.subList(MESSAGES / 2, MESSAGES);
                assertTrue(before.stream().allMatch(m -> m.threadId() == firstThread), "the first half ran on the first process thread");
                assertTrue(after.stream().allMatch(m -> m.threadId() == secondThread), "the second half ran on the new process thread");
                assertSame(after.getFirst().thread(), lane.boundThread(), "the lane is bound to the new process thread");

                assertTrue(sine.samples() > 0, "the ring received audio");
                assertEquals(h.samplesWritten(), sine.samples(), "Java read every sample the callback wrote");
                assertEquals(-1, sine.firstMismatch(), "sample " + sine.firstMismatch() + " is " + sine.mismatchValue()
                        + ", not the sine's");
                assertTrue(h.callbacks() > 0 && p.callbacks() > 0, "both clients were called back");
            }
        }
    }

    /** Waits for {@code condition}, draining the ring meanwhile (this thread is its one consumer); fails after the deadline. */
    private static void await(String what, SineCheck sine, JackClient host, BooleanSupplier condition) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                JackClient.Stats stats = host.stats();
                throw new AssertionError("not reached within " + DEADLINE + ": " + what + " (lanehost client: " + stats.drivesOk()
                        + " drives OK, " + stats.driveFailures() + " failed, the first with " + JackClient.statusName(stats.firstDriveFailure())
                        + "; " + stats.processThreads() + " process threads)");
            }
            sine.drain();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }
}
