package ${package};

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Java first: opens a runtime and its host ABI, exports the lane {@code frame} with a game actor on it and the gate
 * {@code score} in front of that actor, and starts the C host ({@code src/main/c/host.c}) with the host table: the
 * host's own thread drives the lane and calls the gate.
 */
public final class Main {
    private static final int MOVES = 30;
    private static final Object FINISH = new Object();

    private Main() {
    }

    public static void main(String[] args) throws Throwable {
        Path library = Path.of(args.length > 0 ? args[0] : "target/native/libhost.so").toAbsolutePath();
        if (!Files.isRegularFile(library)) {
            System.err.println("no C host at " + library + ": build it first with mvn package");
            System.exit(2);
        }
        Thread mainThread = Thread.currentThread();
        AtomicLong moves = new AtomicLong();
        AtomicLong movesOnMain = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(1);

        Arena arena = Arena.ofConfined();                     // loads the host library; closed last
        try {
            SymbolLookup host = SymbolLookup.libraryLookup(library, arena);
            MethodHandle hostStart = Linker.nativeLinker().downcallHandle(host.findOrThrow("host_start"),
                    FunctionDescriptor.of(JAVA_INT, ADDRESS));  // C: int32_t host_start(const lanehost_api *api)
            MethodHandle hostStop = Linker.nativeLinker().downcallHandle(host.findOrThrow("host_stop"),
                    FunctionDescriptor.of(JAVA_INT));           // C: int32_t host_stop(void)

            ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
            HostAbi abi = HostAbi.open(runtime);
            boolean answered;
            try {
                abi.exportLane(runtime.registerLane("frame"));
                // The game actor's turns run on whichever thread drives the lane "frame": the C host's.
                ActorRef game = runtime.spawnOnLane("frame", "game", () -> (context, message) -> {
                    if (message == FINISH) {
                        finished.countDown();
                    } else {
                        moves.incrementAndGet();
                        if (Thread.currentThread() == mainThread) {
                            movesOnMain.incrementAndGet();
                        }
                    }
                });
                // The gate runs its handler as a turn of the game actor: the score is the moves made so far. Its
                // last message tells Java the host has its answer, in a later turn, once the call has returned.
                abi.exportGate("score", CallGate.open(game, (context, frames) -> {
                    game.tell(FINISH);
                    return moves.get();
                }));
                for (int i = 0; i < MOVES; i++) {
                    if (!game.tell("move " + i)) {
                        throw new IllegalStateException("the lane refused move " + i);
                    }
                }
                int started = (int) hostStart.invokeExact(abi.table());
                answered = started == 0 && finished.await(30, TimeUnit.SECONDS);
            } finally {
                abi.close();
                runtime.close();      // the host thread's next drive tears the lane down on it, then answers CLOSED
            }
            int status = (int) hostStop.invokeExact();       // joins the host thread
            System.out.println("java: the host " + (answered ? "got" : "did not get") + " its answer and ended with status "
                    + status + "; the game actor made " + moves.get() + " moves, " + movesOnMain.get()
                    + " of them on Java's main thread");
            if (!answered || status != 0 || moves.get() != MOVES || movesOnMain.get() != 0) {
                System.exit(1);
            }
        } finally {
            arena.close();                                    // unloads the library: no thread of the host runs in it
        }
    }
}
