package dev.lanehost.samples;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.nativeabi.HostAbi;
import dev.lanehost.nativeabi.HostSetup;
import java.time.Duration;
import java.util.Map;

/**
 * The Java half of the embed-c sample ({@code samples/src/main/c/embed_host.c}): the C program starts the JVM with
 * {@code lanehost_embed_start}, which creates this class and calls {@link #setup}; the program then drives the lane
 * "frame" from its own loop and calls the gate "score".
 *
 * <p>It exports the lane "frame", a "game" actor on it that scores a point for every "tick" message, a "clock"
 * actor on a worker that sends it a tick every 10 ms (so the lane always has work for the C loop), and the gate
 * "score": {@code {"frame": n}} in, the score so far out.
 */
public final class EmbedSetup implements HostSetup {
    /** The game: touched only in its turns, which run on the C program's main thread inside its drives. */
    private static final class Game implements Behavior {
        private long score;

        @Override
        public void receive(ActorContext context, Object message) {
            if (!"tick".equals(message)) {
                throw new IllegalArgumentException("the game takes \"tick\", got " + message);
            }
            score++;
        }
    }

    /** Sends the game a tick every 10 ms, from a worker. */
    private static final class Clock implements Behavior {
        private final ActorRef game;

        Clock(ActorRef game) {
            this.game = game;
        }

        @Override
        public void started(ActorContext context) {
            context.every(Duration.ofMillis(10), this::tick); // one repeating timer for the clock's life
        }

        @Override
        public void receive(ActorContext context, Object message) {
        }

        private void tick(ActorContext context) {
            game.tell("tick");
        }
    }

    /** Public with no arguments: {@code lanehost_embed_start} creates it by name. */
    public EmbedSetup() {
    }

    @Override
    public void setup(ActorRuntime runtime, HostAbi abi) {
        abi.exportLane(runtime.registerLane("frame"));
        Game game = new Game();
        ActorRef gameRef = runtime.spawnOnLane("frame", "game", () -> game);
        runtime.spawn("clock", () -> new Clock(gameRef));
        abi.exportGate("score", CallGate.open(gameRef, (context, query) -> {
            if (!(query instanceof Map<?, ?> map) || !(map.get("frame") instanceof Number)) {
                throw new IllegalArgumentException("score takes {\"frame\": n}, got " + query);
            }
            return game.score;
        }));
    }
}
