package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.nativeabi.internal.HandleTable;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/** The host ABI's handle table: lock-free lookups racing registration and reuse of a slot. */
public final class HandleTableTest {
    private HandleTableTest() {
    }

    /**
     * A host thread that learns a handle (through any happens-before channel, here a volatile) finds the
     * object registered under it: registration publishes the entry before the handle can be known.
     */
    @JCStressTest
    @Outcome(id = "0", expect = ACCEPTABLE, desc = "the host has not learned the handle yet")
    @Outcome(id = "1", expect = ACCEPTABLE, desc = "the handle finds its object")
    @Outcome(id = "-1", expect = FORBIDDEN, desc = "a published handle looked up as unknown")
    @State
    public static class Publication {
        private final HandleTable<String> table = new HandleTable<>(1, "lane", 0);
        private volatile long published;

        @Actor
        public void exporter() {
            published = table.register("frame");
        }

        @Actor
        public void host(I_Result r) {
            long handle = published;
            if (handle == 0) {
                r.r1 = 0;
            } else {
                r.r1 = "frame".equals(table.lookup(handle)) ? 1 : -1;
            }
        }
    }

    /**
     * A stale handle racing the reuse of its slot: it finds its own object or nothing, never the object
     * registered next in the same slot. r1: 1 = old object, 0 = nothing, 2 = the new one; r2: the new
     * handle differs from the old one (1).
     */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the lookup ran before the unregistration")
    @Outcome(id = "0, 1", expect = ACCEPTABLE_INTERESTING, desc = "the stale handle is refused")
    @Outcome(id = "2, .*", expect = FORBIDDEN, desc = "a stale handle reached the slot's next object")
    @Outcome(id = ".*, 0", expect = FORBIDDEN, desc = "the reused slot handed out the same handle")
    @State
    public static class SlotReuse {
        private final HandleTable<String> table = new HandleTable<>(2, "gate", 0);
        private final long old = table.register("old");
        private long next;

        @Actor
        public void owner() {
            table.unregister(old);
            next = table.register("new");
        }

        @Actor
        public void host(II_Result r) {
            Object found = table.lookup(old);
            r.r1 = found == null ? 0 : "old".equals(found) ? 1 : 2;
        }

        @org.openjdk.jcstress.annotations.Arbiter
        public void arbiter(II_Result r) {
            r.r2 = next != old ? 1 : 0;
        }
    }
}
