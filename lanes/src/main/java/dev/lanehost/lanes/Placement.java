package dev.lanehost.lanes;

import java.util.Objects;

/** Where an actor's turns run. */
public sealed interface Placement {
    /**
     * The runtime's normal actors: any HOSTED worker (they move to idle workers), or the host's {@code drain()}
     * (SINGLE_THREAD, SIMULATED).
     */
    Normal NORMAL = new Normal();

    static Lane lane(String name) {
        return new Lane(name);
    }

    static Pinned pinned(int worker) {
        return new Pinned(worker);
    }

    record Normal() implements Placement {
        @Override
        public String toString() {
            return "normal";
        }
    }

    /** One HOSTED worker, for life: never stolen by another (SINGLE_THREAD and SIMULATED have worker 0). */
    record Pinned(int worker) implements Placement {
        @Override
        public String toString() {
            return "pinned(" + worker + ")";
        }
    }

    /** Replica {@code replica} of a placement configuration's entry (0 when it is not replicated): its own thread. */
    static Placed placed(String entry, int replica) {
        return new Placed(entry, replica);
    }

    record Placed(String entry, int replica) implements Placement {
        public Placed {
            Objects.requireNonNull(entry, "entry");
        }

        @Override
        public String toString() {
            return "placed(" + entry + (replica == 0 ? "" : "[" + replica + "]") + ")";
        }
    }

    /** HOSTED's blocking threads: one actor at a time per thread, and its turns may block. */
    Blocking BLOCKING = new Blocking();

    record Blocking() implements Placement {
        @Override
        public String toString() {
            return "blocking";
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
