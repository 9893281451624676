package dev.lanehost.samples;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallResult;
import dev.lanehost.callgate.value.CborIn;
import dev.lanehost.callgate.value.CborOut;
import dev.lanehost.callgate.value.PlainValueException;
import dev.lanehost.lanes.ActorContext;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Behavior;
import dev.lanehost.lanes.DriveResult;
import dev.lanehost.lanes.DriveStatus;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Timer;
import dev.lanehost.nativeabi.HostAbi;
import java.time.Duration;
import java.util.SplittableRandom;

/**
 * The frame-lane sample's Java half: the game state lives on the lane {@value #LANE} that a C frame loop drives,
 * and two kinds of work reach it.
 *
 * <ul>
 *   <li>Input events from C: the gate {@value #INPUT_GATE} (CBOR {@code {"seq": n, "dx": -1|0|1}}, answered with
 *       {@code n}), called by the frame host's input pthread.</li>
 *   <li>World updates from Java: a "world" actor on a worker sends the game state bursts of NPC moves every
 *       {@link #WORLD_TICK} (0–3 at a time, and an explosion of {@link #EXPLOSION} every {@link #EXPLOSION_EVERY}
 *       ticks), so some frames have more work than their turn bound and leave the rest to the next frames.</li>
 * </ul>
 *
 * Every turn of the game state runs on the frame loop's thread, inside a drive: nothing to lock.
 */
public final class GameWorld {
    public static final String LANE = "frame";
    public static final String INPUT_GATE = "input";
    public static final Duration WORLD_TICK = Duration.ofMillis(10);
    public static final int EXPLOSION = 24;
    public static final int EXPLOSION_EVERY = 150;

    /** An NPC moved; a letter for the game state. */
    private record NpcMove(int npc, int dx) {
    }

    /** The game state; touched only in its turns, on the frame thread. Counters are volatile for status lines. */
    private static final class GameState implements Behavior {
        private volatile long inputEvents;
        private volatile long npcMoves;
        private long playerX;
        private final long[] npcX = new long[64];

        @Override
        public void receive(ActorContext context, Object message) {
            if (message instanceof NpcMove move) {
                npcX[move.npc()] += move.dx();
                npcMoves++;
            } else {
                throw new IllegalArgumentException("the game state takes NPC moves, got " + message);
            }
        }

        /** An input event read where it lies, {"dx": n, "seq": s}, answered with its {@code seq}: nothing allocated. */
        void input(CborIn event, CborOut answer) throws PlainValueException {
            long dx = 0;
            long seq = 0;
            for (int i = 0, entries = event.readMap(); i < entries; i++) {
                if (event.nextTextIs("dx")) {
                    event.skip();
                    dx = event.readLong();
                } else if (event.nextTextIs("seq")) {
                    event.skip();
                    seq = event.readLong();
                } else {
                    event.skip(); // a key this version does not know, and its value
                    event.skip();
                }
            }
            playerX += dx;
            inputEvents++;
            answer.writeLong(seq);
        }
    }

    /** Sends the game state NPC moves in bursts, on its own timer, until stopped. */
    private static final class World implements Behavior {
        private final ActorRef state;
        private final SplittableRandom random = new SplittableRandom(0x5EED);
        private volatile long sent;
        private boolean stopped;
        private long ticks;
        private Timer ticker;

        World(ActorRef state) {
            this.state = state;
        }

        @Override
        public void started(ActorContext context) {
            ticker = context.every(WORLD_TICK, this::tick); // one repeating timer: a tick allocates no timer
        }

        @Override
        public void receive(ActorContext context, Object message) {
            throw new IllegalArgumentException("the world takes no messages, got " + message);
        }

        private void tick(ActorContext context) {
            if (stopped) {
                ticker.cancel();
                return;
            }
            int burst = ++ticks % EXPLOSION_EVERY == 0 ? EXPLOSION : random.nextInt(4);
            for (int i = 0; i < burst; i++) {
                if (state.tell(new NpcMove(random.nextInt(64), random.nextInt(3) - 1))) {
                    sent++;
                }
            }
        }
    }

    private final ExecutionLane lane;
    private final GameState state;
    private final World world;
    private final CallGate stopWorld;

    private GameWorld(ExecutionLane lane, GameState state, World world, CallGate stopWorld) {
        this.lane = lane;
        this.state = state;
        this.world = world;
        this.stopWorld = stopWorld;
    }

    /** Registers and exports the lane, spawns the game state on it, exports its input gate, starts the world. */
    public static GameWorld start(ActorRuntime runtime, HostAbi abi) {
        ExecutionLane lane = runtime.registerLane(LANE);
        abi.exportLane(lane);
        GameState state = new GameState();
        ActorRef stateRef = runtime.spawnOnLane(LANE, "game-state", () -> state);
        abi.exportGate(INPUT_GATE, CallGate.openCbor(stateRef, (context, event, answer) -> state.input(event, answer)));
        World world = new World(stateRef);
        ActorRef worldRef = runtime.spawn("world", () -> world);
        CallGate stop = CallGate.open(worldRef, (context, args) -> {
            world.stopped = true;
            return world.sent;
        });
        return new GameWorld(lane, state, world, stop);
    }

    /** Stops the world's bursts; after it returns, no more NPC moves are sent. @return moves sent in all */
    public long stopWorld() {
        CallResult result = stopWorld.call(null, Duration.ofSeconds(10));
        if (!result.isOk()) {
            throw new IllegalStateException("the world did not stop: " + result.status() + " " + result.detail());
        }
        return ((Number) result.value()).longValue();
    }

    /**
     * From any thread once the frame host has ended (the lane then rebinds to the caller): runs what is left on the
     * lane, so every move sent is handled. @return turns run
     */
    public long drainLane() {
        DriveResult result = lane.drive(0);
        if (result.status() != DriveStatus.OK) {
            throw new IllegalStateException("could not drain the lane '" + LANE + "': " + result.status());
        }
        return result.turns();
    }

    public ExecutionLane lane() {
        return lane;
    }

    /** Input events the game state handled. */
    public long inputEvents() {
        return state.inputEvents;
    }

    /** NPC moves the game state handled. */
    public long npcMoves() {
        return state.npcMoves;
    }

    /** NPC moves the world sent. */
    public long npcMovesSent() {
        return world.sent;
    }
}
