package dev.lanehost.benchmarks;

import dev.lanehost.ring.SpscByteRing;
import dev.lanehost.ring.SpscByteRingDescriptor;
import dev.lanehost.testhost.TestHost;
import dev.lanehost.testhost.TestHost.ForeignThread;
import dev.lanehost.testhost.TestHost.Role;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A Java side of a ring against a C side, window by window in the same placement. {@link RingThroughputBenchmark} runs
 * each transport in its own JVM, and the host moves the two vCPUs between close and far placement at will, so a
 * comparison in close placement has to wait for the few trials that happened to run close, and pairs trials that ran
 * minutes apart. Here one JVM, one ring and one C pthread on the other side stay put, and the main thread moves whole
 * chunks in short windows, turn about: from Java ({@link SpscByteRing#write(MemorySegment, long, long)} or
 * {@link SpscByteRing#read(MemorySegment, long, long)}) and from C ({@link TestHost#moveChunks}), through the same
 * native bytes (a confined arena's: a shared arena's segment costs a Java side its arena's acquire and release on
 * every call), then from Java through a {@code byte[]}. As the {@code writer} the main thread writes and a C consumer
 * reads; as the {@code reader} a C producer writes and the main thread reads. A placement probe before each group of
 * windows says where the group ran; the summary pairs each Java window with the C window of its group that copied
 * through the same bytes.
 *
 * <p>Where the main thread's bytes sit within a page relative to the ring's data changes a copy by as much as the gap
 * being measured (glibc's {@code memcpy} copies backwards when the destination is less than 512 bytes past the source,
 * modulo 4096, against 4 KiB aliasing), so the bytes are placed at chosen distances: {@code d} is the copy's
 * destination address minus its source address, modulo 4096, at the start of each chunk (exact for chunks that are a
 * multiple of 4096: every window moves whole chunks, so the ring's positions stay on chunk boundaries). A
 * {@code byte[]} sits wherever the heap put it.
 *
 * <p>Usage: {@code RingSidePairs writer|reader [chunk=4096] [groups=40] [windowMillis=100] [distances=0,64,2048]}. The
 * first two groups warm the code and are not counted. {@code RingSidePairs --pool output...} pools the windows that
 * several runs of one side printed (each JVM puts the ring and the buffers in other physical pages, which moves a
 * run's figures by more than the gap between the sides, so a comparison takes many JVMs) and prints the same summary
 * over all of them.
 */
public final class RingSidePairs {
    private static final long CAPACITY = 1 << 20;
    private static final long SEED = 1;
    private static final int WARM_GROUPS = 2;
    private static final int PAGE = 4096;
    /** Chunks between looks at the clock. */
    private static final int CHUNKS_A_LOOK = 32;

    private RingSidePairs() {
    }

    /** One window: which side, at what distance, in which group and placement, and what a chunk took. */
    record Window(int group, String placement, double roundTripNanos, String arm, double nanosPerChunk) {
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 0 && args[0].equals("--pool")) {
            pool(Arrays.asList(args).subList(1, args.length));
            return;
        }
        Role side = switch (args.length > 0 ? args[0] : "") {
            case "writer" -> Role.PRODUCER;
            case "reader" -> Role.CONSUMER;
            default -> throw new IllegalArgumentException(
                    "usage: RingSidePairs writer|reader [chunk] [groups] [windowMillis] [distances], or --pool output...");
        };
        int chunk = args.length > 1 ? Integer.parseInt(args[1]) : 4096;
        int groups = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        long windowNanos = (args.length > 3 ? Long.parseLong(args[3]) : 100) * 1_000_000L;
        List<Integer> distances = new ArrayList<>();
        for (String d : (args.length > 4 ? args[4] : "0,64,2048").split(",")) {
            int distance = Integer.parseInt(d.trim());
            if (distance < 0 || distance >= PAGE) {
                throw new IllegalArgumentException("a distance is from 0 to 4095 bytes: " + d);
            }
            distances.add(distance);
        }
        List<Window> windows = run(side, chunk, groups, windowNanos, distances);
        System.out.println();
        summarize(windows, distances);
    }

    static List<Window> run(Role side, int chunk, int groups, long windowNanos, List<Integer> distances) {
        boolean writer = side == Role.PRODUCER;
        List<Window> windows = new ArrayList<>();
        try (SpscByteRing ring = SpscByteRing.allocate(CAPACITY); Arena arena = Arena.ofConfined()) {
            long data = ring.memory().address() + SpscByteRingDescriptor.HEADER_LENGTH;
            MemorySegment pages = arena.allocate(chunk + 2L * PAGE, PAGE);
            byte[] array = new byte[chunk];
            for (int i = 0; i < chunk; i++) {
                array[i] = TestHost.patternByte(i, SEED);
            }
            MemorySegment.copy(MemorySegment.ofArray(array), 0, pages, 0, chunk); // any bytes: the copy, not the values
            ForeignThread other = TestHost.start(writer ? Role.CONSUMER : Role.PRODUCER, ring, 0, SEED, chunk, 0);
            try {
                System.out.printf(Locale.ROOT, "%s, chunk %d, ring data at %d within its page, %d groups of %d ms windows%n",
                        writer ? "writer" : "reader", chunk, data % PAGE, groups, windowNanos / 1_000_000);
                for (int group = 0; group < groups; group++) {
                    PlacementProbe.Result placement = PlacementProbe.measure(20_000);
                    List<Window> these = new ArrayList<>();
                    for (int distance : distances) {
                        // Writing, the ring is the destination: the bytes sit the distance before the data, modulo a
                        // page. Reading, the bytes are the destination: the distance after it.
                        long address = writer ? data - distance : data + distance;
                        MemorySegment bytes = pages.asSlice(Math.floorMod(address - pages.address(), PAGE), chunk);
                        boolean cFirst = (group + distance) % 2 == 0; // neither side always runs first
                        for (int turn = 0; turn < 2; turn++) {
                            boolean c = cFirst == (turn == 0);
                            double nanos = c
                                    ? window(() -> TestHost.moveChunks(side, ring, bytes, CHUNKS_A_LOOK, chunk), windowNanos)
                                    : window(() -> javaBatch(writer, ring, bytes, chunk), windowNanos);
                            these.add(new Window(group, placement.placement(), placement.medianNanos(),
                                    (c ? "c@" : "java@") + distance, nanos));
                        }
                    }
                    these.add(new Window(group, placement.placement(), placement.medianNanos(), "javaArray",
                            window(() -> arrayBatch(writer, ring, array, chunk), windowNanos)));
                    for (Window w : these) {
                        System.out.printf(Locale.ROOT, "group %3d %-6s %6.1f ns  %-10s %7.1f ns a chunk%n",
                                w.group(), w.placement(), w.roundTripNanos(), w.arm(), w.nanosPerChunk());
                    }
                    if (group >= WARM_GROUPS) {
                        windows.addAll(these);
                    }
                }
            } finally {
                other.stop(); // a producer that finds the ring full stops too
                TestHost.Result result = other.join();
                if (result.status() != 0) {
                    throw new IllegalStateException("the C " + (writer ? "consumer" : "producer") + " failed: " + result);
                }
            }
        }
        return windows;
    }

    /** Reads the windows the runs printed, numbering each run's groups apart, and summarizes them together. */
    static void pool(List<String> outputs) throws IOException {
        Pattern line = Pattern.compile("group +(\\d+) (\\S+) +([\\d.]+) ns +(\\S+) +([\\d.]+) ns a chunk");
        List<Window> windows = new ArrayList<>();
        Set<Integer> distances = new TreeSet<>();
        int run = 0;
        for (String output : outputs) {
            for (String text : Files.readAllLines(Path.of(output))) {
                Matcher m = line.matcher(text);
                if (!m.matches() || Integer.parseInt(m.group(1)) < WARM_GROUPS) {
                    continue;
                }
                String arm = m.group(4);
                if (arm.startsWith("c@")) {
                    distances.add(Integer.parseInt(arm.substring(2)));
                }
                windows.add(new Window(run * 1_000_000 + Integer.parseInt(m.group(1)), m.group(2),
                        Double.parseDouble(m.group(3)), arm, Double.parseDouble(m.group(5))));
            }
            run++;
        }
        System.out.printf(Locale.ROOT, "%d runs, %d windows%n", outputs.size(), windows.size());
        summarize(windows, List.copyOf(distances));
    }

    /** Runs {@code batch} (a batch of {@value #CHUNKS_A_LOOK} chunks) until the window is over: nanoseconds a chunk. */
    private static double window(Runnable batch, long windowNanos) {
        long start = System.nanoTime();
        long chunks = 0;
        long now;
        do {
            batch.run();
            chunks += CHUNKS_A_LOOK;
            now = System.nanoTime();
        } while (now - start < windowNanos);
        return (now - start) / (double) chunks;
    }

    private static void javaBatch(boolean writer, SpscByteRing ring, MemorySegment bytes, int chunk) {
        for (int i = 0; i < CHUNKS_A_LOOK; i++) {
            for (long done = 0; done < chunk; ) { // a partial chunk goes on where it stopped, as the C side's does
                long n = writer ? ring.write(bytes, done, chunk - done) : ring.read(bytes, done, chunk - done);
                if (n == 0) {
                    Thread.onSpinWait();
                }
                done += n;
            }
        }
    }

    /** {@link #javaBatch} over a {@code byte[]}: its own loop, so neither loop's call sees two kinds of bytes. */
    private static void arrayBatch(boolean writer, SpscByteRing ring, byte[] array, int chunk) {
        for (int i = 0; i < CHUNKS_A_LOOK; i++) {
            for (int done = 0; done < chunk; ) {
                int n = writer ? ring.write(array, done, chunk - done) : ring.read(array, done, chunk - done);
                if (n == 0) {
                    Thread.onSpinWait();
                }
                done += n;
            }
        }
    }

    /**
     * Per placement: each arm's median time a chunk, and the median over groups of the C side's time over the Java
     * side's (above 1: Java is faster) at each distance; the {@code byte[]} side against the C side's median over the
     * distances in its group.
     */
    static void summarize(List<Window> windows, List<Integer> distances) {
        Map<String, List<Window>> byPlacement = new TreeMap<>();
        for (Window w : windows) {
            byPlacement.computeIfAbsent(w.placement(), k -> new ArrayList<>()).add(w);
        }
        for (Map.Entry<String, List<Window>> entry : byPlacement.entrySet()) {
            Map<Integer, List<Window>> byGroup = new TreeMap<>();
            for (Window w : entry.getValue()) {
                byGroup.computeIfAbsent(w.group(), k -> new ArrayList<>()).add(w);
            }
            System.out.printf(Locale.ROOT, "%s placement, %d groups (probe median %.1f ns):%n", entry.getKey(), byGroup.size(),
                    Stats.median(entry.getValue().stream().map(Window::roundTripNanos).toList()));
            for (int distance : distances) {
                List<Double> ratios = new ArrayList<>();
                List<Double> java = new ArrayList<>();
                List<Double> c = new ArrayList<>();
                for (List<Window> group : byGroup.values()) {
                    double javaNanos = nanos(group, "java@" + distance);
                    double cNanos = nanos(group, "c@" + distance);
                    java.add(javaNanos);
                    c.add(cNanos);
                    ratios.add(cNanos / javaNanos);
                }
                System.out.printf(Locale.ROOT, "  d %4d: Java %6.1f ns a chunk, C %6.1f; Java/C throughput %.3f (p25 %.3f, p75 %.3f)%n",
                        distance, Stats.median(java), Stats.median(c), Stats.median(ratios), Stats.quantile(ratios, 0.25), Stats.quantile(ratios, 0.75));
            }
            List<Double> ratios = new ArrayList<>();
            List<Double> array = new ArrayList<>();
            for (List<Window> group : byGroup.values()) {
                List<Double> c = new ArrayList<>();
                for (int distance : distances) {
                    c.add(nanos(group, "c@" + distance));
                }
                double arrayNanos = nanos(group, "javaArray");
                array.add(arrayNanos);
                ratios.add(Stats.median(c) / arrayNanos);
            }
            System.out.printf(Locale.ROOT, "  byte[]: Java %6.1f ns a chunk; against C's median over the distances %.3f (p25 %.3f, p75 %.3f)%n",
                    Stats.median(array), Stats.median(ratios), Stats.quantile(ratios, 0.25), Stats.quantile(ratios, 0.75));
        }
    }

    private static double nanos(List<Window> group, String arm) {
        for (Window w : group) {
            if (w.arm().equals(arm)) {
                return w.nanosPerChunk();
            }
        }
        throw new IllegalStateException("no window " + arm + " in group " + group.getFirst().group());
    }
}
