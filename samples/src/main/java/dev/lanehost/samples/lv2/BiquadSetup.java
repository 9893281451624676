package dev.lanehost.samples.lv2;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.Placement;
import dev.lanehost.lanes.SpawnOptions;
import dev.lanehost.lanes.TurnBudget;
import dev.lanehost.nativeabi.GuestInstance;
import dev.lanehost.nativeabi.GuestSetup;
import dev.lanehost.ring.SpscByteRing;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.time.Duration;
import java.util.List;

/**
 * One instance of the LV2 biquad plugin ({@code samples/src/main/c/lv2/lanehost_biquad.c}), built when the host calls
 * the plugin's {@code instantiate()}: three rings, the effect actor and three gates, all exported under the
 * instance's name, and a warm-up of the effect's code before the plugin reports itself ready.
 *
 * <ul>
 *   <li>rings {@code capture} (C writes the input), {@code controls} ({@link ControlRecord}s) and {@code playback}
 *       (the effect writes the output);</li>
 *   <li>gates {@code activate} ({@code [lead frames, cutoff Hz, q]} in, the lead out), {@code pump} (processes every
 *       frame captured so far; an offline host's {@code run()} calls it when it must wait) and {@code stop}.</li>
 * </ul>
 */
public final class BiquadSetup implements GuestSetup {
    /** 2^18 frames, 5.5 s at 48 kHz: the capture ring overruns only if the effect stalls longer than that. */
    static final long AUDIO_RING_BYTES = 1L << 20;
    /** 128 records: a host changes controls far less often than once per run() between two ticks. */
    static final long CONTROL_RING_BYTES = 128L * ControlRecord.LENGTH;
    /**
     * The audio samples' budget (AudioActors): a turn takes microseconds, so one that lasts 100 ms was held off the
     * CPU, not running away; with the default budget three such stalls would halt the effect for the machine's sake.
     */
    static final TurnBudget BUDGET = new TurnBudget(Duration.ofMillis(10), Duration.ofSeconds(1), 3);
    /** Frames the warm-up moves: enough for C2 to compile the filter loop and the ring transfers (about 10k loops). */
    private static final int WARM_UP_FRAMES = 1 << 18;

    /** Public with no arguments: {@code lanehost_guest_instantiate} creates it by name. */
    public BiquadSetup() {
    }

    @Override
    public void setup(GuestInstance instance) {
        double rate = Double.parseDouble(instance.argument("sample_rate"));
        warmUp(rate);
        SpscByteRing capture = instance.exportRing("capture", AUDIO_RING_BYTES).ring();
        SpscByteRing controls = instance.exportRing("controls", CONTROL_RING_BYTES).ring();
        SpscByteRing playback = instance.exportRing("playback", AUDIO_RING_BYTES).ring();
        // Shared: the effect's worker uses it; closed at the free, after the plugin stopped the effect (its cleanup
        // calls the gate "stop" before freeing the instance), since the free closes the newest registrations first.
        Arena arena = Arena.ofShared();
        instance.onFree(arena::close);
        BiquadEffect effect = new BiquadEffect(capture, controls, playback,
                new BiquadLowPass(rate, 1000, 0.707), arena);
        // Pinned: the effect owns one side of each ring, and a ring side belongs to one thread for life.
        ActorRef actor = instance.own(instance.runtime().spawn(instance.exported("effect"), Placement.pinned(0),
                SpawnOptions.DEFAULT.withBudget(BUDGET), () -> effect));
        instance.exportGate("activate", CallGate.open(actor, (context, arguments) -> {
            if (!(arguments instanceof List<?> list) || list.size() != 3
                    || !(list.get(0) instanceof Number lead) || !(list.get(1) instanceof Number cutoff)
                    || !(list.get(2) instanceof Number q)) {
                throw new IllegalArgumentException("activate takes [lead, cutoff, q]");
            }
            effect.activate(context.nanoTime(), lead.intValue(), cutoff.doubleValue(), q.doubleValue());
            return lead.longValue();
        }));
        instance.exportGate("pump", CallGate.open(actor, (context, arguments) -> effect.pump()));
        instance.exportGate("stop", CallGate.open(actor, (context, arguments) -> {
            effect.stop(context.nanoTime());
            return null;
        }));
    }

    /**
     * Runs the effect's own code over scratch rings on this thread, so that the first real-time periods find it
     * compiled instead of interpreted (a cold start would underrun the lead).
     */
    private static void warmUp(double rate) {
        int chunk = 2048;
        long bytes = (long) chunk * BiquadEffect.FRAME_BYTES;
        try (Arena arena = Arena.ofConfined();
             SpscByteRing capture = SpscByteRing.allocate(1 << 16);
             SpscByteRing controls = SpscByteRing.allocate(1 << 12);
             SpscByteRing playback = SpscByteRing.allocate(1 << 16)) {
            BiquadEffect effect = new BiquadEffect(capture, controls, playback,
                    new BiquadLowPass(rate, 1000, 0.707), arena);
            effect.activate(System.nanoTime(), 0, 1000, 0.707);
            MemorySegment frames = arena.allocate(bytes, Long.BYTES);
            for (int done = 0; done < WARM_UP_FRAMES; done += chunk) {
                for (int i = 0; i < chunk; i++) {
                    frames.setAtIndex(ValueLayout.JAVA_FLOAT, i, (float) Math.sin(0.01 * (done + i)));
                }
                capture.write(frames, 0, bytes);
                effect.pump();
                playback.read(frames, 0, bytes);
            }
        }
    }
}
