package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.Test;

/** The opt-in runtime MBean, read as a JMX client would: through the platform MBean server. */
class RuntimeMBeanTest {
    private static final long PATIENCE_SECONDS = 30;
    private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

    @Test
    void aRuntimeRegistersNothingUntilAsked() throws Exception {
        int before = server.queryNames(new ObjectName("dev.lanehost:type=Runtime,*"), null).size();
        try (ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            runtime.spawn("a", () -> (context, message) -> { });
            assertEquals(before, server.queryNames(new ObjectName("dev.lanehost:type=Runtime,*"), null).size());
        }
    }

    @Test
    void theAttributesFollowTheRuntimeAndTheMBeanGoesAtClose() throws Exception {
        ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
        ObjectName name = runtime.registerMBean("mbean-test-follow");
        assertEquals(new ObjectName("dev.lanehost:type=Runtime,name=mbean-test-follow"), name);
        assertTrue(server.isRegistered(name));
        assertEquals("SINGLE_THREAD", server.getAttribute(name, "Profile"));
        assertEquals(0L, server.getAttribute(name, "LiveActors"));

        ActorRef first = runtime.spawn("first", () -> (context, message) -> { });
        runtime.spawn("second", () -> (context, message) -> { });
        assertEquals(2L, server.getAttribute(name, "LiveActors"));
        assertEquals(2L, server.getAttribute(name, "NormalQueued"), "both starts queued, nothing drained yet");
        runtime.runUntilIdle(Duration.ZERO);
        first.kill();
        runtime.runUntilIdle(Duration.ZERO);
        assertEquals(1L, server.getAttribute(name, "LiveActors"));
        assertEquals(0L, server.getAttribute(name, "NormalQueued"));
        assertEquals(1L, haltsOf(name, "Killed"));
        assertEquals(0L, haltsOf(name, "Failed"));
        assertEquals(1, server.getAttribute(name, "WorkerCount"));
        assertArrayEquals(new long[0], (long[]) server.getAttribute(name, "WorkerTurns"), "SINGLE_THREAD has no workers");
        assertFalse((Boolean) server.getAttribute(name, "Closed"));
        assertEquals(0L, server.getAttribute(name, "Restarts"));
        assertEquals(0L, server.getAttribute(name, "Hydrations"));

        runtime.close();
        assertFalse(server.isRegistered(name), "unregistered by the close");
    }

    @Test
    void aHostedRuntimeShowsEachWorkersTurnsAndItsAffinityResults() throws Exception {
        try (ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(2).build()) {
            ObjectName name = runtime.registerMBean("mbean-test-hosted");
            ActorRuntimeMXBean proxy = JMX.newMXBeanProxy(server, name, ActorRuntimeMXBean.class);
            CountDownLatch ran = new CountDownLatch(1);
            runtime.spawnPinned(1, "on-one", () -> (context, message) -> ran.countDown()).tell("go");
            assertTrue(ran.await(PATIENCE_SECONDS, TimeUnit.SECONDS));
            assertEquals(2, proxy.getWorkerCount());
            assertArrayEquals(new String[] {"lanehost-worker-0", "lanehost-worker-1"}, proxy.getWorkerThreads());
            assertEquals(2, proxy.getWorkerTurns().length);
            // A worker publishes its turn count when a run returns, which is after the turn that counted down.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(PATIENCE_SECONDS);
            while (proxy.getWorkerTurns()[1] < 2 && System.nanoTime() < deadline) {
                Thread.yield();
            }
            assertTrue(proxy.getWorkerTurns()[1] >= 2, "worker 1 ran the pinned actor's start and its letter");
            assertEquals(2, proxy.getWorkerSteals().length);
            assertEquals(2, proxy.getWorkerStealAttempts().length);
            assertEquals(0, proxy.getAffinitySuccesses() + proxy.getAffinityFailures(), "the default policy asks for nothing");
            assertEquals(runtime.metrics().haltsByReason(), proxy.getHaltsByReason());
        }
    }

    @Test
    void twoRuntimesRegisterSideBySideAndAnUnnamedOneIsNumbered() throws Exception {
        try (ActorRuntime one = ActorRuntime.create(Profile.SINGLE_THREAD);
             ActorRuntime two = ActorRuntime.create(Profile.SIMULATED)) {
            ObjectName first = one.registerMBean();
            ObjectName second = two.registerMBean();
            assertNotEquals(first, second);
            assertTrue(first.getKeyProperty("name").startsWith("runtime-"), first.toString());
            one.spawn("only-in-one", () -> (context, message) -> { });
            assertEquals(1L, server.getAttribute(first, "LiveActors"));
            assertEquals(0L, server.getAttribute(second, "LiveActors"));
            assertEquals("SIMULATED", server.getAttribute(second, "Profile"));
            one.close();
            assertFalse(server.isRegistered(first));
            assertTrue(server.isRegistered(second), "the other runtime's MBean stays");
        }
    }

    @Test
    void anUnnamedRegistrationSkipsANumberAProgramTookAsAName() throws Exception {
        try (ActorRuntime numbered = ActorRuntime.create(Profile.SINGLE_THREAD);
             ActorRuntime named = ActorRuntime.create(Profile.SINGLE_THREAD);
             ActorRuntime unnamed = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            long n = Long.parseLong(numbered.registerMBean().getKeyProperty("name").substring("runtime-".length()));
            // The next number, and the one after it, taken by name (another test may register in between: take two).
            ObjectName taken = named.registerMBean("runtime-" + (n + 1));
            ObjectName alsoTaken;
            try (ActorRuntime another = ActorRuntime.create(Profile.SINGLE_THREAD)) {
                alsoTaken = another.registerMBean("runtime-" + (n + 2));
                ObjectName chosen = unnamed.registerMBean();
                assertNotEquals(taken, chosen);
                assertNotEquals(alsoTaken, chosen);
                assertTrue(server.isRegistered(chosen));
                assertEquals("SINGLE_THREAD", server.getAttribute(chosen, "Profile"));
            }
        }
    }

    @Test
    void aTakenUnfitOrLateNameIsAClearError() {
        try (ActorRuntime one = ActorRuntime.create(Profile.SINGLE_THREAD);
             ActorRuntime two = ActorRuntime.create(Profile.SINGLE_THREAD)) {
            one.registerMBean("mbean-test-taken");
            IllegalArgumentException taken = assertThrows(IllegalArgumentException.class, () -> two.registerMBean("mbean-test-taken"));
            assertTrue(taken.getMessage().contains("already registered"), taken.getMessage());
            IllegalArgumentException unfit = assertThrows(IllegalArgumentException.class, () -> two.registerMBean("a,b"));
            assertTrue(unfit.getMessage().contains("holds ','"), unfit.getMessage());
            assertThrows(IllegalArgumentException.class, () -> two.registerMBean(" "));
            two.close();
            IllegalStateException late = assertThrows(IllegalStateException.class, () -> two.registerMBean("mbean-test-late"));
            assertTrue(late.getMessage().contains("closed"), late.getMessage());
        }
    }

    private long haltsOf(ObjectName name, String kind) throws Exception {
        TabularData halts = (TabularData) server.getAttribute(name, "HaltsByReason");
        CompositeData row = halts.get(new Object[] {kind});
        return (Long) row.get("value");
    }
}
