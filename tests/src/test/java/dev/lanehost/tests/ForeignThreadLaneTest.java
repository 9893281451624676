package dev.lanehost.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.lanes.Signal;
import dev.lanehost.lanes.SignalMode;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Lanes driven, and signals fired, from real foreign threads: pthreads of the C test host that enter Java
 * through FFM upcall stubs, as an audio engine or a frame loop would.
 */
class ForeignThreadLaneTest {
    // Upcall targets are static; each test sets the lane or signal they act on.
    private static volatile ExecutionLane lane;
    private static volatile Signal signal;
    private static final AtomicInteger TURNS = new AtomicInteger();

    private final Arena arena = Arena.ofShared();
    private ActorRuntime runtime;

    @BeforeEach
    void start() {
        runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
        TURNS.set(0);
    }

    @AfterEach
    void stop() {
        runtime.close();
        arena.close();
    }

    /** The upcall a host callback makes: drive the lane, never throw, return the status code. */
    static int driveLane(long maxTurns) {
        try {
            var result = lane.drive((int) maxTurns);
            TURNS.addAndGet(result.turns());
            return result.status().code();
        } catch (Throwable e) {
            return -1; // nothing may cross the upcall boundary
        }
    }

    static int fireSignal(long payloadByte) {
        try {
            return signal.fire(new byte[] {(byte) payloadByte}) ? 1 : 0;
        } catch (Throwable e) {
            return -1;
        }
    }

    private MemorySegment upcall(String method) throws ReflectiveOperationException {
        var handle = MethodHandles.lookup().findStatic(ForeignThreadLaneTest.class, method,
                MethodType.methodType(int.class, long.class));
        return Linker.nativeLinker().upcallStub(handle, TestHost.UPCALL, arena);
    }

    @Test
    void theFirstPthreadBindsTheLaneForAllItsUpcallsASecondIsRefusedWhileItLivesAndBindsItOnceItEnded() throws Exception {
        lane = runtime.registerLane("audio");
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        ActorRef synth = runtime.spawnOnLane("audio", "synth", () -> {
            ranOn.add(Thread.currentThread());
            return new Behavior() {
                @Override
                public void receive(ActorContext context, Object message) {
                    ranOn.add(Thread.currentThread());
                }
            };
        });
        for (int i = 0; i < 100; i++) {
            synth.tell(i);
        }
        MemorySegment drive = upcall("driveLane");

        Thread pthread;
        try (TestHost.Caller first = TestHost.startCaller(drive, 1)) { // one turn per upcall; its first upcall is made here
            assertEquals(0, first.run(499), "499 more upcalls, each answered OK (0)");
            assertEquals(101, TURNS.get(), "the start turn (factory and started) and 100 messages");
            pthread = lane.boundThread();
            assertNotSame(Thread.currentThread(), pthread);
            assertEquals("lanehost-lane-audio", pthread.getName(), "an attached foreign thread is named after its lane");
            assertEquals(101, ranOn.size());
            for (Thread thread : ranOn) {
                assertSame(pthread, thread);
            }

            synth.tell("after");
            int[] second = TestHost.callOnNewThread(drive, 0, 20);
            int[] refused = new int[20];
            Arrays.fill(refused, DriveStatus.WRONG_THREAD.code());
            assertTrue(Arrays.equals(refused, second), "a live bound pthread is never displaced: " + Arrays.toString(second));
            assertEquals(1, lane.queued(), "the refused drives ran nothing");
            assertEquals(DriveStatus.WRONG_THREAD, lane.drive(0).status(), "nor may a Java thread drive it");
        } // the first pthread exits: the JVM detaches it and its Thread ends

        assertTrue(Arrays.equals(new int[] {DriveStatus.OK.code()}, TestHost.callOnNewThread(drive, 0, 1)),
                "the next pthread binds the lane once the bound one has ended");
        assertEquals(102, ranOn.size(), "the letter queued meanwhile ran");
        assertNotSame(pthread, ranOn.getLast());
        assertEquals(1, lane.rebinds());
    }

    @Test
    void aSignalFiredFromAForeignThreadBecomesALetterOnItsOwner() throws Exception {
        List<Integer> received = new CopyOnWriteArrayList<>();
        runtime.spawn("listener", () -> new Behavior() {
            @Override
            public void started(ActorContext context) {
                signal = context.signal(SignalMode.MULTISHOT, (c, payload) -> received.add((int) payload[0]), null);
            }

            @Override
            public void receive(ActorContext context, Object message) {
            }
        });
        runtime.runUntilIdle(Duration.ZERO);
        int[] fired = TestHost.callOnNewThread(upcall("fireSignal"), 7, 3);
        assertTrue(Arrays.equals(new int[] {1, 1, 1}, fired), Arrays.toString(fired));
        runtime.runUntilIdle(Duration.ZERO);
        assertEquals(List.of(7, 7, 7), received);
    }
}
