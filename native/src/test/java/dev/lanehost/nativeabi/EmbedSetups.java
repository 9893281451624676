package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import java.util.List;

/** The setup classes test_embed.c starts through {@code lanehost_embed_start}, one per scenario of EmbedFromCTest. */
public final class EmbedSetups {
    private EmbedSetups() {
    }

    /**
     * A lane "frame" with an actor that counts the letters it gets; a gate "echo" (on a worker) that answers its
     * arguments and forwards them to that actor; a gate "frames" on the lane actor that answers
     * [letters counted, the thread name of its turn].
     */
    public static final class Frames implements HostSetup {
        @Override
        public void setup(ActorRuntime runtime, HostAbi abi) {
            abi.exportLane(runtime.registerLane("frame"));
            int[] letters = {0}; // touched only by the lane actor's turns, which never overlap
            ActorRef counter = runtime.spawnOnLane("frame", "counter", () -> (context, message) -> letters[0]++);
            abi.exportGate("frames", CallGate.open(counter,
                    (context, args) -> List.of(letters[0], Thread.currentThread().getName())));
            ActorRef echo = runtime.spawn("echo", () -> (context, message) -> { });
            abi.exportGate("echo", CallGate.open(echo, (context, args) -> {
                counter.tell(args);
                return args;
            }));
        }
    }

    /** Rings the {@link Rings} and {@link RingsThenThrow} setups exported, for the test to look at afterwards. */
    static final List<HostRing> EXPORTED_RINGS = new java.util.concurrent.CopyOnWriteArrayList<>();

    /** Exports a ring "audio" and leaves it open, as a C-first setup does: nothing in Java is left to close it. */
    public static final class Rings implements HostSetup {
        @Override
        public void setup(ActorRuntime runtime, HostAbi abi) {
            EXPORTED_RINGS.add(abi.exportRing("audio", 4096));
        }
    }

    /** Exports a ring, then throws: the failed start must not leave the ring's memory behind. */
    public static final class RingsThenThrow implements HostSetup {
        @Override
        public void setup(ActorRuntime runtime, HostAbi abi) {
            EXPORTED_RINGS.add(abi.exportRing("audio", 4096));
            throw new IllegalStateException("setup refuses on purpose, after exporting a ring");
        }
    }

    public static final class Throwing implements HostSetup {
        @Override
        public void setup(ActorRuntime runtime, HostAbi abi) {
            abi.exportLane(runtime.registerLane("frame")); // closed again with the runtime
            throw new IllegalStateException("setup refuses on purpose");
        }
    }

    /** A setup that finds the heap exhausted (thrown here, as a large setup would meet it). */
    public static final class OutOfMemory implements HostSetup {
        @Override
        public void setup(ActorRuntime runtime, HostAbi abi) {
            throw new OutOfMemoryError("Java heap space (thrown by the test setup)");
        }
    }

    public static final class ThrowingConstructor implements HostSetup {
        public ThrowingConstructor() {
            throw new UnsupportedOperationException("constructor refuses on purpose");
        }

        @Override
        public void setup(ActorRuntime runtime, HostAbi abi) {
        }
    }

    /** Throws an exception whose getMessage() and toString() throw: the report must survive it. */
    public static final class ThrowingUnreadably implements HostSetup {
        @Override
        public void setup(ActorRuntime runtime, HostAbi abi) {
            throw new Unreadable();
        }
    }

    static final class Unreadable extends RuntimeException {
        private static final long serialVersionUID = 1L;

        @Override
        public String getMessage() {
            throw new UnsupportedOperationException("no message for you");
        }

        @Override
        public String toString() {
            throw new UnsupportedOperationException("no text for you");
        }
    }

    public static final class NotASetup {
    }

    public static final class NoPublicConstructor implements HostSetup {
        NoPublicConstructor() {
        }

        @Override
        public void setup(ActorRuntime runtime, HostAbi abi) {
        }
    }
}
