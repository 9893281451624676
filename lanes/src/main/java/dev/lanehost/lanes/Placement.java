package dev.lanehost.lanes;

import java.util.Objects;

/** Where an actor's turns run. */
public sealed interface Placement {
    /** The runtime's normal run queue: the worker (HOSTED) or the host's {@code drain()} (SINGLE_THREAD, SIMULATED). */
    Normal NORMAL = new Normal();

    static Lane lane(String name) {
        return new Lane(name);
    }

    record Normal() implements Placement {
        @Override
        public String toString() {
            return "normal";
        }
    }

    /** A named execution lane; only its host's drives run these turns. */
    record Lane(String name) implements Placement {
        public Lane {
            Objects.requireNonNull(name, "lane name");
        }

        @Override
        public String toString() {
            return "lane(" + name + ")";
        }
    }
}
