package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.affinity.Affinity;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * An actor halts while a native call on another thread still holds a segment of its arena (a shared arena refuses to
 * close then): the teardown goes on, the worker survives, the arena is closed once the call returns.
 */
class HeldArenaTest {
    private static final Linker C = Linker.nativeLinker();
    private static final MethodHandle PIPE = C.downcallHandle(C.defaultLookup().findOrThrow("pipe"),
            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS));
    private static final MethodHandle READ = C.downcallHandle(C.defaultLookup().findOrThrow("read"),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));
    private static final MethodHandle WRITE = C.downcallHandle(C.defaultLookup().findOrThrow("write"),
            FunctionDescriptor.of(ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG));

    @Test
    void aHaltWhileANativeCallHoldsTheArenaTearsDownAndClosesTheArenaWhenTheCallReturns() throws Throwable {
        try (Arena test = Arena.ofConfined(); ActorRuntime runtime = ActorRuntime.builder(Profile.HOSTED).workers(1).build()) {
            MemorySegment fds = test.allocate(ValueLayout.JAVA_INT, 2);
            assertEquals(0, (int) PIPE.invokeExact(fds));
            int readEnd = fds.getAtIndex(ValueLayout.JAVA_INT, 0);
            int writeEnd = fds.getAtIndex(ValueLayout.JAVA_INT, 1);
            AtomicLong readerTid = new AtomicLong(-1);
            CompletableFuture<Long> read = new CompletableFuture<>();
            ActorRef owner = runtime.spawn("owner", () -> (context, message) -> {
                MemorySegment buffer = context.arena().allocate(16); // handed to a native call on a thread of its own
                Thread.ofPlatform().name("native-reader").start(() -> {
                    readerTid.set(Affinity.system().currentThreadId().orElse(0));
                    try {
                        read.complete((long) READ.invokeExact(readEnd, buffer, 1L)); // blocks until the test writes
                    } catch (Throwable t) {
                        read.completeExceptionally(t);
                    }
                });
            });
            CountDownLatch down = Downs.awaitable(runtime, owner);
            owner.tell("read");
            awaitBlockedInRead(readerTid);

            assertTrue(owner.kill());
            assertTrue(down.await(30, TimeUnit.SECONDS), "the teardown went on and the monitor got its Down");
            assertEquals(1, runtime.resources().arenas(), "held by the read: not closed yet, still counted");
            CompletableFuture<String> worker = new CompletableFuture<>();
            runtime.spawn("after", () -> (context, message) -> worker.complete(Thread.currentThread().getName())).tell("run");
            assertEquals("lanehost-worker-0", worker.get(30, TimeUnit.SECONDS), "the only worker survived the teardown");

            assertEquals(1L, (long) WRITE.invokeExact(writeEnd, test.allocate(1), 1L)); // the read returns
            assertEquals(1L, read.get(30, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (runtime.resources().arenas() != 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait(); // the timer thread's next try closes it
            }
            assertEquals(0, runtime.resources().arenas(), "closed once the read let go of it");
        }
    }

    /** Until the reader thread sleeps in the kernel (state S in /proc): the read holds the arena then. */
    private static void awaitBlockedInRead(AtomicLong tid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            long id = tid.get();
            if (id > 0) {
                String stat = Files.readString(Path.of("/proc/self/task/" + id + "/stat"));
                if (stat.substring(stat.lastIndexOf(')') + 2).startsWith("S")) {
                    return;
                }
            }
            Thread.onSpinWait();
        }
        throw new AssertionError("the reader never blocked in read()");
    }
}
