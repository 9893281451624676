package dev.lanehost.samples;

import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.nativeabi.HostAbi;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The main demo's core, without its printing: the frame lane ({@link GameWorld} driven by the C frame host at
 * 60 Hz, input events through a gate from a C thread, NPC moves from a Java actor) and the audio ring
 * ({@link AudioRing}: JACK or the built-in audio thread writing a sweep, a Java actor consuming it) in one runtime
 * and one host ABI.
 *
 * <ol>
 *   <li>{@link #start}: a HOSTED runtime and its host ABI; the game world; the audio ring; the frame host.</li>
 *   <li>{@link #status()} while it runs: live counts, each read on its own.</li>
 *   <li>{@link #finish()}: stop the frame host (the input thread's last call is answered first), stop the world's
 *       moves and run what is left on the lane, stop the audio producer and let the consumer read the rest.
 *       Every count in the {@link Report} is then final, so they must agree with each other exactly.</li>
 * </ol>
 */
public final class CombinedDemo implements AutoCloseable {
    public static final int FRAME_RATE_HZ = FrameLaneDemo.RATE_HZ;
    public static final int MAX_TURNS = FrameLaneDemo.MAX_TURNS;
    /** Frames recorded at most: ten minutes at 60 Hz, for runs longer than the demo's ten seconds. */
    private static final int MAX_FRAMES = 36_000;

    /**
     * How to run.
     *
     * @param audio which audio producer
     * @param wav   the WAV file of the audio consumer, or null
     * @param logDirectory where jackd's log goes
     */
    public record Settings(AudioRing.Source audio, Path wav, Path logDirectory) {
    }

    /**
     * Live counts.
     *
     * @param frames      frames the C loop ran
     * @param lateFrames  of which woke more than a period late
     * @param frameTurns  turns the frames' drives ran
     * @param inputOk     input gate calls answered OK (C's count)
     * @param npcMoves    NPC moves the game state handled
     * @param audio       the audio ring's counts
     */
    public record Status(int frames, int lateFrames, long frameTurns, int inputOk, long npcMoves, AudioRing.Counts audio) {
    }

    /**
     * Final counts, all taken after everything stopped.
     *
     * @param run            the frame host's run (every frame's record)
     * @param frames         statistics of the frames
     * @param inputHandled   input events the game state handled (Java's count)
     * @param npcSent        NPC moves the world sent
     * @param npcHandled     NPC moves the game state handled
     * @param drainedTurns   turns run on the lane after the frame loop ended (the last queued moves)
     * @param laneTurns      turns the lane ran in all (lanehost's count)
     * @param audio          the audio ring's final counts
     * @param audioSource    what produced the audio
     * @param jackFallback   why JACK was not used, or null
     */
    public record Report(FrameHost.Run run, FrameStats frames, long inputHandled, long npcSent, long npcHandled,
                         long drainedTurns, long laneTurns, AudioRing.Counts audio, String audioSource, int periodFrames,
                         int sampleRate, String jackFallback) {
    }

    private final ActorRuntime runtime;
    private final HostAbi abi;
    private final GameWorld world;
    private final AudioRing audio;
    private final FrameHost frames;
    private Report report;

    private CombinedDemo(ActorRuntime runtime, HostAbi abi, GameWorld world, AudioRing audio, FrameHost frames) {
        this.runtime = runtime;
        this.abi = abi;
        this.world = world;
        this.audio = audio;
        this.frames = frames;
    }

    public static CombinedDemo start(Settings settings) throws IOException {
        ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
        HostAbi abi = null;
        AudioRing audio = null;
        try {
            abi = HostAbi.open(runtime);
            // The audio first: starting jackd takes a second, and the world's NPC moves would wait that long on a
            // lane no frame drives yet (the lane's stall watch says so at 1 s). The world starts one frame ahead of
            // the loop that drives its lane.
            audio = AudioRing.start(runtime, abi, new AudioRing.Settings(settings.audio(), AudioRingDemo.SWEEP,
                    AudioRingDemo.PERIOD_FRAMES, settings.wav(), settings.logDirectory()));
            GameWorld world = GameWorld.start(runtime, abi);
            FrameHost host = FrameHost.start(abi.table(), GameWorld.LANE, GameWorld.INPUT_GATE, new FrameHost.Settings(FRAME_RATE_HZ,
                    MAX_TURNS, 0, MAX_FRAMES, Integer.MAX_VALUE, Duration.ofSeconds(10)));
            return new CombinedDemo(runtime, abi, world, audio, host);
        } catch (IOException | RuntimeException | Error e) {
            if (audio != null) {
                audio.close();
            }
            if (abi != null) {
                abi.close();
            }
            runtime.close();
            throw e;
        }
    }

    /** The audio producer in use. */
    public AudioProducer audioProducer() {
        return audio.producer();
    }

    /** Why JACK was not used, or null. */
    public String jackFallback() {
        return audio.fallbackReason();
    }

    /** The audio timing records (complete after {@link #finish()}), for the plot. */
    public AudioTiming audioTiming() {
        return audio.timing();
    }

    /** Live counts, from any thread. */
    public Status status() {
        FrameHost.Progress p = frames.progress();
        return new Status(p.frames(), p.lateFrames(), p.turns(), p.eventsOk(), world.npcMoves(), audio.counts());
    }

    /** Stops everything in order and returns the final counts. Idempotent. */
    public Report finish() {
        if (report != null) {
            return report;
        }
        frames.stop();
        FrameHost.Run run = frames.join();
        long npcSent = world.stopWorld();
        long drained = world.drainLane();
        AudioRing.Counts audioCounts = audio.finish();
        report = new Report(run, FrameStats.of(run, MAX_TURNS), world.inputEvents(), npcSent, world.npcMoves(), drained,
                world.lane().turns(), audioCounts, audio.producer().name(), audio.producer().periodFrames(),
                audio.producer().sweep().rate(), audio.fallbackReason());
        return report;
    }

    /** Finishes if not yet, then frees the frame host, the audio ring, the host ABI and the runtime. */
    @Override
    public void close() {
        try (runtime; abi; audio; frames) {
            finish();
        }
    }
}
