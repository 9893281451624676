package dev.lanehost.lanes.budget;

import dev.lanehost.lanes.ActorContext;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Work a turn does for the runtime rather than for its actor, kept off the actor's turn budget. Exported to
 * {@code dev.lanehost.callgate} only: a gate's turn copies its handler's result (encodes it, or copies it as plain
 * values) after the handler returns, inside the turn so the caller gets a snapshot of the actor's values, and that
 * copy grows with the result, which the gate's {@code maxResultBytes} allows up to 16 MiB and more. Charged to the
 * actor, a legal result could earn strikes and halt it; the budget is for the handler.
 *
 * <p>The runtime registers its side when its first turn context is made ({@code dev.lanehost.lanes} cannot export a
 * package to one module without exporting it to all, so the door is here and the lock is there).
 */
public final class UnchargedWork {
    private static volatile Consumer<ActorContext> stopCharging;

    private UnchargedWork() {
    }

    /**
     * From here to its end the running turn of {@code context}'s actor earns no budget flag: no yield request, no
     * strike, no disruption. What it earned before stays. Call it on the turn's own thread, after the actor's own
     * code has returned.
     *
     * @throws IllegalStateException if called outside that turn
     */
    public static void startsNow(ActorContext context) {
        Objects.requireNonNull(context, "context");
        Consumer<ActorContext> registered = stopCharging;
        if (registered == null) {
            throw new IllegalStateException("no turn has run in this JVM, so " + context.getClass().getName()
                    + " is not a runtime's turn context");
        }
        registered.accept(context);
    }

    /** The runtime's side, registered once by {@code dev.lanehost.lanes}. */
    public static void register(Consumer<ActorContext> runtimeSide) {
        Objects.requireNonNull(runtimeSide, "runtimeSide");
        synchronized (UnchargedWork.class) {
            if (stopCharging != null) {
                throw new IllegalStateException("the runtime's side of UnchargedWork is registered already");
            }
            stopCharging = runtimeSide;
        }
    }
}
