package dev.lanehost.benchmarks.actors;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.pekko.actor.ActorSystem;

/** Ends a Pekko actor system and waits for it, so the next trial's figures do not share the CPU with it. */
final class PekkoShutdown {
    private static final long DEADLINE_SECONDS = 60;

    private PekkoShutdown() {
    }

    static void terminate(ActorSystem system) {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(DEADLINE_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while Pekko system " + system.name() + " terminated", e);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Pekko system " + system.name() + " did not terminate within "
                    + DEADLINE_SECONDS + " s", e);
        }
    }
}
