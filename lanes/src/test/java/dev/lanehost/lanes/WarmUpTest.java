package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

class WarmUpTest {

    /** A snapshot without its clock readings, which move by themselves. */
    private static String timeless(Snapshot snapshot) {
        StringBuilder out = new StringBuilder();
        for (Snapshot.ActorRow row : snapshot.actors()) {
            out.append(row.id()).append(' ').append(row.name()).append(' ').append(row.placement()).append(' ')
                    .append(row.state()).append(' ').append(row.queueDepth()).append(' ').append(row.turns()).append('\n');
        }
        for (Snapshot.LaneRow lane : snapshot.lanes()) {
            out.append(lane.name()).append(' ').append(lane.boundThread()).append(' ').append(lane.drives()).append(' ')
                    .append(lane.turns()).append(' ').append(lane.bandDepths()).append(' ').append(lane.queuedLetters())
                    .append(' ').append(lane.rebinds()).append('\n');
        }
        return out.toString();
    }

    @Test
    void warmingUpFromFourThreadsAtOnceBindsNothingAndLeavesNoTrace() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SIMULATED)) {
            ExecutionLane lane = runtime.registerLane("audio");
            ActorRef synth = runtime.spawnOnLane("audio", "synth", () -> (c, m) -> { });
            synth.tell("queued");
            runtime.spawn("worker", () -> (c, m) -> { });
            runtime.drain();
            String before = timeless(runtime.snapshot());
            ResourceCounts resources = runtime.resources();
            int scheduleSteps = runtime.schedule().steps().size();
            Thread boundBefore = lane.boundThread(); // SIMULATED's drain drives lanes itself, binding them to its thread
            long drivesBefore = lane.drives();
            long lettersBefore = lane.queuedLetters();

            CountDownLatch go = new CountDownLatch(1);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                // Named as the JVM names an attached foreign thread: binding a lane would rename it.
                threads.add(Thread.ofPlatform().name("Thread-" + (9000 + i)).start(() -> {
                    try {
                        go.await();
                        runtime.warmUpThread();
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            go.countDown();
            for (Thread thread : threads) {
                thread.join();
            }

            assertEquals(List.of(), failures);
            for (int i = 0; i < 4; i++) {
                assertEquals("Thread-" + (9000 + i), threads.get(i).getName(), "no lane bound it");
            }
            assertEquals(boundBefore, lane.boundThread());
            assertEquals(drivesBefore, lane.drives());
            assertEquals(before, timeless(runtime.snapshot()));
            assertEquals(resources, runtime.resources());
            assertEquals(scheduleSteps, runtime.schedule().steps().size(), "no step of the simulated schedule");
            assertEquals(0, runtime.metrics().laneStallReports());
            assertEquals(lettersBefore, lane.queuedLetters(), "the registered lane's letters are untouched");
        }
    }

    @Test
    void aWarmUpThatTheRuntimesCloseInterruptsEndsQuietly() throws Exception {
        // A host's thread-init hook may warm up while the host stops the runtime. The close lands in some round of the
        // warm-up, between its drives and its release or elsewhere: whichever, the warm-up ends without a failure.
        for (int attempt = 0; attempt < 40; attempt++) {
            ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
            CountDownLatch warming = new CountDownLatch(2);
            List<Throwable> failures = new CopyOnWriteArrayList<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    warming.countDown();
                    try {
                        while (!runtime.isClosed()) {
                            runtime.warmUpThread();
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }));
            }
            warming.await();
            runtime.close();
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(List.of(), failures, "attempt " + attempt);
        }
    }
}
