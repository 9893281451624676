package dev.lanehost.lanes;

/**
 * Why an actor halted. Everything but {@link Normal} is abnormal and propagates across links, but {@link Shutdown}
 * (the close halts every actor with it, so it is neither followed across links nor sent to monitors).
 */
public sealed interface ExitReason {
    Normal NORMAL = new Normal();
    Killed KILLED = new Killed();
    Budget BUDGET = new Budget();
    Reaped REAPED = new Reaped();
    Shutdown SHUTDOWN = new Shutdown();

    /** True for every reason except {@link Normal}. */
    default boolean isAbnormal() {
        return !(this instanceof Normal);
    }

    /** The actor stopped itself ({@link ActorContext#stop()}). */
    record Normal() implements ExitReason {
    }

    /** A turn threw. */
    record Failed(Throwable cause) implements ExitReason {
        @Override
        public String toString() {
            return "Failed[" + cause + "]";
        }
    }

    /** Somebody called {@link ActorRef#kill()}. */
    record Killed() implements ExitReason {
    }

    /** The actor exceeded its turn budget's strike ceiling. */
    record Budget() implements ExitReason {
    }

    /** The actor was idle past its idle timeout. */
    record Reaped() implements ExitReason {
    }

    /** The runtime closed. */
    record Shutdown() implements ExitReason {
    }

    /** A linked actor exited abnormally; {@code reason} is why. */
    record Linked(ActorRef peer, ExitReason reason) implements ExitReason {
    }
}
