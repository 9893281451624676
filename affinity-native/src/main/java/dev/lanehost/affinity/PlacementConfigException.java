package dev.lanehost.affinity;

import java.util.List;

/**
 * A topology declaration or placement configuration that cannot be used. Carries every problem found,
 * not only the first, so one run shows the user everything to fix.
 */
public final class PlacementConfigException extends IllegalArgumentException {
    private final List<String> problems;

    public PlacementConfigException(String what, List<String> problems) {
        super(what + ": " + (problems.size() == 1 ? problems.getFirst() : problems.size() + " problems:\n  - " + String.join("\n  - ", problems)));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
