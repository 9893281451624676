package dev.lanehost.affinity;

import java.util.List;

/**
 * How many threads a placement configuration starts and why, readable before anything runs.
 *
 * @param lines one per placement entry and one per pool
 * @param total the sum of {@link Line#threads()}
 */
public record ThreadBudget(List<Line> lines, int total) {

    /**
     * @param what      the entry or pool
     * @param placement how it is placed, as configured
     * @param threads   threads it starts
     * @param why       the counting rule that applied
     */
    public record Line(String what, String placement, int threads, String why) {
    }

    public ThreadBudget {
        lines = List.copyOf(lines);
    }

    /** A table for humans, e.g. for a {@code --dump-thread-budget} option. */
    @Override
    public String toString() {
        int whatWidth = Math.max(5, lines.stream().mapToInt(line -> line.what().length()).max().orElse(0));
        int placementWidth = Math.max(9, lines.stream().mapToInt(line -> line.placement().length()).max().orElse(0));
        StringBuilder text = new StringBuilder("thread budget: ").append(total).append(total == 1 ? " thread\n" : " threads\n");
        for (Line line : lines) {
            text.append(String.format("  %-" + whatWidth + "s  %-" + placementWidth + "s  %3d  %s%n",
                    line.what(), line.placement(), line.threads(), line.why()));
        }
        return text.toString();
    }
}
