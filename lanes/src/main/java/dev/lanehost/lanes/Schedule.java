package dev.lanehost.lanes;

import java.util.ArrayList;
import java.util.List;

/**
 * The order in which a SIMULATED runtime ran its actors: one step per pick, naming the queue (a lane,
 * or {@code "normal"}) and the actor. Replaying it into a runtime built with the same program forces the
 * same picks.
 *
 * @param seed  the seed the schedule was made with
 * @param steps the picks in order
 */
public record Schedule(long seed, List<Step> steps) {
    public Schedule {
        steps = List.copyOf(steps);
    }

    /** One pick: which actor ran next on which queue. */
    public record Step(String queue, long actorId) {
    }

    private static final String HEADER = "lanehost-schedule 1 seed ";

    /**
     * The schedule as text, one step per line ({@code actorId<TAB>queue}, the queue's backslash, tab and line
     * breaks escaped) under a header with the seed: what a failing simulation writes to a file so it can be
     * replayed ({@link #parse}).
     */
    public String toText() {
        StringBuilder text = new StringBuilder(HEADER).append(seed).append('\n');
        for (Step step : steps) {
            text.append(step.actorId()).append('\t').append(escape(step.queue())).append('\n');
        }
        return text.toString();
    }

    /**
     * Reads {@link #toText()}'s form back (blank lines at its end are ignored).
     *
     * @throws IllegalArgumentException naming the line that is not a schedule's
     */
    public static Schedule parse(String text) {
        List<String> lines = new ArrayList<>(text.lines().toList());
        while (!lines.isEmpty() && lines.get(lines.size() - 1).isBlank()) {
            lines.remove(lines.size() - 1); // an editor's or a heredoc's trailing blank lines are no steps
        }
        if (lines.isEmpty() || !lines.get(0).startsWith(HEADER)) {
            throw new IllegalArgumentException("not a lanehost schedule: the first line must start with '" + HEADER + "'");
        }
        long seed;
        try {
            seed = Long.parseLong(lines.get(0).substring(HEADER.length()).trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("line 1 of the schedule: the seed is not a number: " + lines.get(0));
        }
        List<Step> steps = new ArrayList<>(lines.size() - 1);
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            int tab = line.indexOf('\t');
            try {
                if (tab < 0) {
                    throw new NumberFormatException("no tab");
                }
                if (tab == line.length() - 1) {
                    throw new IllegalArgumentException("line " + (i + 1) + " of the schedule names no queue after its tab: " + line);
                }
                steps.add(new Step(unescape(line.substring(tab + 1)), Long.parseLong(line.substring(0, tab))));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("line " + (i + 1) + " of the schedule is not 'actorId<TAB>queue': " + line);
            }
        }
        return new Schedule(seed, steps);
    }

    private static String escape(String queue) {
        return queue.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r");
    }

    private static String unescape(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\\' && i + 1 < text.length()) {
                char next = text.charAt(++i);
                out.append(switch (next) {
                    case 't' -> '\t';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    default -> next;
                });
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
