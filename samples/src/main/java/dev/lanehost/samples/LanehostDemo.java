package dev.lanehost.samples;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The main demo ({@code bin/demo}, the jar's main class): a C game loop drives the lane "frame" at 60 Hz while a C
 * audio callback (JACK if it is installed and starts, else the built-in audio thread) streams a sine sweep through a
 * ring into a Java actor, and a C input thread calls a gate — all in one process, for about ten seconds. It prints
 * a live status line twice a second and a final table whose every line says what it counts.
 *
 * <p>Usage: {@code java -jar samples/target/lanehost-demo.jar [seconds, default 10] [--out DIR, default
 * target/lanehost-demo] [--thread (the built-in audio thread even where JACK is there) | --jack (JACK or fail)]}
 */
public final class LanehostDemo {
    private static final long STATUS_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

    private LanehostDemo() {
    }

    /** One line per counter of the status line. */
    private static final String STATUS_LEGEND = """
            status line, twice a second:
              t            seconds since the start
              frames       frames the C loop ran (in brackets: how many woke more than a period late)
              turns        turns the frames' lane drives ran
              input        gate calls from the C input thread answered OK
              npc          NPC moves the game state handled
              audio        audio callbacks run
              read         audio samples the Java actor read and checked
              fill         audio in the ring, written but not yet read
              over/under   ring overruns (periods the callback dropped: ring full) / underruns (consumer ticks short of audio)
            """;

    public static void main(String[] args) throws Exception {
        // lanehost logs through java.util.logging; one line a record (its level kept) reads better between a status line and a table.
        System.setProperty("java.util.logging.SimpleFormatter.format", "lanehost %4$s: %5$s%6$s%n");
        int seconds = 10;
        Path out = Path.of("target", "lanehost-demo");
        AudioRing.Source source = AudioRing.Source.AUTO;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--out" -> out = Path.of(args[++i]);
                case "--thread" -> source = AudioRing.Source.THREAD;
                case "--jack" -> source = AudioRing.Source.JACK;
                default -> seconds = parseSeconds(args[i]);
            }
        }
        Path wav = out.resolve("sweep.wav");
        Path png = out.resolve("audio-ring.png");
        CombinedDemo.Report report;
        String wrote;
        try (CombinedDemo demo = CombinedDemo.start(new CombinedDemo.Settings(source, wav, out))) {
            if (demo.jackFallback() != null) {
                System.out.println("JACK not used: " + demo.jackFallback());
            }
            System.out.printf("lanehost demo, %d s: C frame loop %d Hz -> lane 'frame' (game state; <= %d turns a frame) <- gate 'input'"
                            + " from a C thread; %s -> ring 'audio' -> Java actor 'audio-consumer'%n",
                    seconds, CombinedDemo.FRAME_RATE_HZ, CombinedDemo.MAX_TURNS, demo.audioProducer().name());
            System.out.print(STATUS_LEGEND);
            long start = System.nanoTime();
            long end = start + TimeUnit.SECONDS.toNanos(seconds);
            for (long now = start; now < end; now = System.nanoTime()) {
                printStatus(demo.status(), (now - start) / 1e9);
                LockSupport.parkNanos(Math.min(STATUS_NANOS, end - now)); // pacing the status line, not synchronisation
            }
            printStatus(demo.status(), (System.nanoTime() - start) / 1e9);
            System.out.println();
            report = demo.finish();
            try {
                AudioPlot.render(demo.audioTiming(), report.sampleRate(), report.periodFrames(), report.audioSource(), png);
                wrote = String.format("wrote %s (the sweep as 16-bit PCM) and %s (callback periods and ring fill over time)%n", wav, png);
            } catch (Exception | Error e) {
                // A JDK without fonts cannot draw text; the demo's numbers stand without the picture.
                wrote = String.format("wrote %s; no plot: %s (a headless JDK needs fontconfig and a font: apt-get install"
                        + " fontconfig fonts-dejavu-core)%n", wav, e);
            }
        } // closed before the table: what the runtime logs while it closes (a lane's rebind) comes before it, not inside it
        printTable(report);
        System.out.print(wrote);
        String problem = Consistency.check(report);
        if (problem != null) {
            System.out.println("INCONSISTENT: " + problem);
            System.exit(1);
        }
    }

    private static void printStatus(CombinedDemo.Status s, double seconds) {
        AudioRing.Counts a = s.audio();
        long fillSamples = (a.producer().samplesWritten() - a.samplesRead());
        System.out.printf("\rt %4.1f | frames %5d (%d late) | turns %6d | input %5d | npc %5d | audio %6d | read %,10d | fill %3.0f ms"
                        + " | over/under %d/%d ",
                seconds, s.frames(), s.lateFrames(), s.frameTurns(), s.inputOk(), s.npcMoves(), a.producer().periods(),
                a.samplesRead(), fillSamples * 1e3 / AudioRingDemo.SAMPLE_RATE, a.producer().ringOverruns(), a.underruns());
        System.out.flush();
    }

    private static void printTable(CombinedDemo.Report r) {
        FrameStats f = r.frames();
        AudioRing.Counts a = r.audio();
        AudioProducer.Counts p = a.producer();
        double periodMs = 1e3 / CombinedDemo.FRAME_RATE_HZ;
        String format = "  %-20s %-46s %s%n";
        System.out.printf(format, "counter", "value", "what it counts");
        System.out.printf(format, "frames", f.frames(), "frames the C loop ran at " + CombinedDemo.FRAME_RATE_HZ + " Hz, each one lane_drive");
        System.out.printf(format, "late frames", f.lateFrames(), String.format("frames that woke more than a period (%.1f ms) late", periodMs));
        System.out.printf(format, "drive time", FrameStats.quantiles(f.driveNanos()), "how long a frame's lane_drive took (p50 / p99 / max)");
        System.out.printf(format, "wake jitter", FrameStats.quantiles(f.jitterNanos()), "how long after its deadline a frame woke");
        System.out.printf(format, "turns per frame", f.histogram(), "frames that ran 0, 1, ... turns; the last is the bound");
        System.out.printf(format, "frames at the bound", f.boundHit(), "frames that ran all " + CombinedDemo.MAX_TURNS
                + " turns and left letters for the next frames");
        System.out.printf(format, "drives not OK", f.failedDrives(), "lane_drive calls that returned a status other than OK");
        System.out.printf(format, "input events", r.run().eventsSent() + " sent, " + r.run().eventsOk() + " OK",
                "gate calls from the C input thread; OK = answered with its own sequence number");
        System.out.printf(format, "NPC moves", r.npcSent() + " sent, " + r.npcHandled() + " handled",
                "letters from the Java world actor to the game state; " + r.drainedTurns() + " ran after the loop ended");
        System.out.printf(format, "lane turns", r.laneTurns(), "turns lane 'frame' ran: the start turn + input events + NPC moves");
        System.out.printf(format, "audio callbacks", p.periods(), r.audioSource() + ", " + r.periodFrames() + " frames at "
                + r.sampleRate() + " Hz");
        System.out.printf(format, "samples", String.format("%,d written, %,d read", p.samplesWritten(), a.samplesRead()),
                "sweep samples the callback put in the ring / the Java actor read and checked");
        System.out.printf(format, "wrong samples", a.firstMismatch() < 0 ? "none" : "first at " + a.firstMismatch(),
                "samples that were not the sweep's (each checked by its index)");
        System.out.printf(format, "ring overruns", p.ringOverruns(), "periods the callback dropped because the ring was full");
        System.out.printf(format, "underruns", a.underruns(), "consumer ticks that found less audio than the callback's records said it wrote (less "
                + AudioConsumer.LATENCY.toMillis() + " ms)");
        if (r.audioSource().startsWith("JACK")) {
            System.out.printf(format, "JACK xruns", p.xruns(), "cycles the JACK server itself missed (it tells every client)");
        } else {
            System.out.printf(format, "late periods", p.latePeriods(), "audio thread periods that woke more than a period late");
        }
    }

    private static int parseSeconds(String text) {
        try {
            int value = Integer.parseInt(text);
            if (value > 0) {
                return value;
            }
        } catch (NumberFormatException ignored) {
            // fall through to the message
        }
        System.err.println("usage: lanehost-demo [seconds > 0] [--out DIR] [--thread | --jack]; got '" + text + "'");
        System.exit(2);
        return 0;
    }
}
