package dev.lanehost.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.lanehost.lanes.TurnCallback;
import dev.lanehost.ring.SpscByteRing;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** The consumer's ticks, run by hand with a test clock: a producer writes exactly one tick of audio before each. */
class AudioConsumerTest {
    private static final Sweep SWEEP = Sweep.of(100, 4000, 48_000, 2.0);
    private static final long TICK_NANOS = AudioConsumer.TICK.toNanos();
    private static final int SAMPLES_PER_TICK = 240; // 5 ms at 48 kHz

    private final SpscByteRing audio = SpscByteRing.allocate(64 * 1024);
    private final SpscByteRing timingRing = SpscByteRing.allocate(4 * 1024);
    private final ByteBuffer period = ByteBuffer.allocate(SAMPLES_PER_TICK * Float.BYTES).order(ByteOrder.nativeOrder());
    private final ByteBuffer record = ByteBuffer.allocate(AudioTiming.RECORD_BYTES).order(ByteOrder.nativeOrder());
    private final TestContext context = new TestContext();
    private long written;
    private long ticks;

    @Test
    void itArmsOneRepeatingTimerAtStartAndNoTimerPerTick() {
        AudioConsumer consumer = new AudioConsumer(audio, AudioTiming.keepingFirst(timingRing, 0), SWEEP, null);
        consumer.started(context);
        TurnCallback first = context.repeating;
        tick();
        tick();
        assertSame(first, context.repeating);
        assertEquals(1, context.everys, "one repeating timer for the actor's life");
        assertEquals(0, context.delays, "a timer armed per tick is an allocation in every turn");
    }

    @Test
    void anUnderrunIsARingHoldingLessThanTheProducersRecordsSay() {
        AudioConsumer consumer = new AudioConsumer(audio, AudioTiming.keepingFirst(timingRing, 0), SWEEP, null);
        consumer.started(context);
        for (int i = 0; i < 10; i++) {
            tick();
        }
        assertEquals(0, consumer.underruns());
        // The producer's records say five more ticks of audio were written (25 ms, more than the 20 ms the consumer
        // keeps), but that audio never reached the ring.
        for (int i = 0; i < 5; i++) {
            record.clear();
            record.putLong(context.nanoTime).putLong(audio.readable()).putLong(written).putInt(SAMPLES_PER_TICK).putInt(0).flip();
            timingRing.write(record);
            written += SAMPLES_PER_TICK;
        }
        context.fire();
        assertEquals(1, consumer.underruns(), "the ring held less than the producer said it had written, less the latency");
    }

    @Test
    void aProducerThatFallsBehindTheWallClockIsNoUnderrun() {
        AudioConsumer consumer = new AudioConsumer(audio, AudioTiming.keepingFirst(timingRing, 0), SWEEP, null);
        consumer.started(context);
        for (int i = 0; i < 10; i++) {
            tick();
        }
        // A server that loses cycles: a whole second passes with no audio and no records, then it goes on.
        context.nanoTime += 1_000_000_000L;
        context.fire();
        for (int i = 0; i < 10; i++) {
            tick();
        }
        assertEquals(0, consumer.underruns(), "the producer's clock stood still too: nothing more was due");
        assertEquals(-1, consumer.firstMismatch());
    }

    @Test
    void aTickThatReadsWhatIsDueAllocatesNothing() {
        AudioTiming timing = AudioTiming.keepingFirst(timingRing, 0);
        AudioConsumer consumer = new AudioConsumer(audio, timing, SWEEP, null);
        consumer.started(context);
        AllocationCheck.assertAllocationFree("a consumer tick", 1_000, this::tick);
        assertEquals(-1, consumer.firstMismatch(), "every sample is the sweep's");
        assertEquals(0, consumer.underruns(), "each tick found what was due");
        assertEquals(ticks, timing.read(), "one timing record a tick, all read");
        long buffered = AudioConsumer.LATENCY.toNanos() / TICK_NANOS * SAMPLES_PER_TICK;
        assertEquals(written - buffered, consumer.samples(), "it plays the latency behind the producer");
    }

    /** The producer's part of a tick (audio and one timing record), then 5 ms pass and the consumer's timer fires. */
    private void tick() {
        period.clear();
        for (int i = 0; i < SAMPLES_PER_TICK; i++) {
            period.putFloat(SWEEP.sample(written + i));
        }
        period.flip();
        audio.write(period);
        record.clear();
        record.putLong(context.nanoTime).putLong(audio.readable()).putLong(written).putInt(SAMPLES_PER_TICK).putInt(0).flip();
        timingRing.write(record);
        written += SAMPLES_PER_TICK;
        ticks++;
        context.nanoTime += TICK_NANOS;
        context.fire();
    }
}
