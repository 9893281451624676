package dev.lanehost.affinity;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The placement block: which named entries get their own pinned thread (or K replicas),
 * which share a cooperative pool, and where each may run.
 *
 * <pre>{@code
 * PlacementConfig placement = PlacementConfig.parse("""
 *         gateway: pinned(core = 1);
 *         workers: pinned(cores = 4..12, replicas = 8);
 *         matcher: pinned(l3 = fast);
 *         metrics: cooperative(pool = io, cores = 0..=1);
 *         ui:      cooperative(pool = render);
 *         """);
 * System.out.print(placement.threadBudget());       // before anything runs
 * placement.validate(declared, affinity.topology()); // clear errors, all at once
 * List<ThreadPlan> threads = placement.resolve(declared);
 * }</pre>
 *
 * <p>Counting rules ({@link #threadBudget()}): a pinned entry is one thread, {@code replicas = K} is K;
 * a cooperative pool is one worker however many entries share it; the {@code main} pool is the
 * program's own thread and starts none.
 *
 * <p>Resolution ({@link #resolve}): a single pinned thread gets its target's whole core set (a range is an
 * isolation domain the OS schedules within); replica {@code i} of K gets the {@code i}-th core of the
 * target, wrapping round-robin when there are more replicas than cores; a target naming a node or an
 * L3 domain also names the node for the thread's memory. A pool's affinity is declared on one of its
 * entries and the others inherit it.
 */
public final class PlacementConfig {
    /** The pool unlisted entries default to; the program's own thread. */
    public static final String MAIN_POOL = "main";

    /** One placement entry. */
    public sealed interface Entry {
        String name();

        PlacementTarget target();
    }

    /** Its own thread(s): {@code pinned(target, replicas = K)}. */
    public record Pinned(String name, PlacementTarget target, int replicas) implements Entry {
        @Override
        public String toString() {
            String args = target.toString() + (replicas != 1 ? (target instanceof PlacementTarget.Anywhere ? "" : ", ") + "replicas = " + replicas : "");
            return "pinned" + (args.isEmpty() ? "" : "(" + args + ")");
        }
    }

    /** A cooperative pool's thread, shared: {@code cooperative(pool = X, target)}. */
    public record Pooled(String name, String pool, PlacementTarget target) implements Entry {
        @Override
        public String toString() {
            return "cooperative(pool = " + pool + (target instanceof PlacementTarget.Anywhere ? "" : ", " + target) + ")";
        }
    }

    private final List<Entry> entries;

    private PlacementConfig(List<Entry> entries) {
        this.entries = List.copyOf(entries);
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Parses entries of the form {@code name: pinned(args);} or {@code name: cooperative(args);}, separated
     * by {@code ;} or new lines; {@code //} starts a comment. Args are {@code core}, {@code cores},
     * {@code node}, {@code l3}, {@code replicas} (pinned only) and {@code pool} (cooperative only).
     *
     * @throws PlacementConfigException listing every entry that does not parse, each by the line and column
     *                                   (both from 1) where the entry begins
     */
    public static PlacementConfig parse(String text) {
        Builder builder = builder();
        List<String> problems = new ArrayList<>();
        int lineNumber = 0;
        for (String line : text.split("\n", -1)) {
            lineNumber++;
            int comment = line.indexOf("//");
            String content = comment >= 0 ? line.substring(0, comment) : line;
            int offset = 0;
            for (String statement : content.split(";", -1)) {
                int column = offset + (statement.length() - statement.stripLeading().length()) + 1;
                offset += statement.length() + 1;
                if (statement.isBlank()) {
                    continue;
                }
                try {
                    builder.entries.add(parseEntry(statement.strip()));
                } catch (IllegalArgumentException e) {
                    problems.add("line " + lineNumber + ", column " + column + ": " + e.getMessage());
                }
            }
        }
        if (!problems.isEmpty()) {
            throw new PlacementConfigException("invalid placement", problems);
        }
        return builder.build();
    }

    public List<Entry> entries() {
        return entries;
    }

    /**
     * Checks the configuration against the declared topology and the real machine; every problem at once:
     * duplicate entry names, {@code replicas < 1}, an unknown node or L3 domain, a target claiming a
     * reserved core, a core this process may not use, a pool given two different affinities, an affinity on the
     * {@code main} pool (its thread is the program's own), a pool named like an entry, a pinned entry whose name
     * is not ASCII letters, digits, '_', '.' and '-', or (with one replica) names one of the runtime's own threads
     * ({@code timer}, {@code worker-<n>}, {@code blocking-<n>}).
     *
     * @param real the machine; when {@linkplain Topology#available() unavailable}, the allowed-set check is skipped
     *             (placement then falls back to unpinned threads, each result saying why)
     * @throws PlacementConfigException listing every problem
     */
    public void validate(TopologyDeclaration declared, Topology real) {
        List<String> problems = new ArrayList<>();
        Map<String, Entry> byName = new LinkedHashMap<>();
        Map<String, Pooled> poolAffinity = new LinkedHashMap<>();
        for (Entry entry : entries) {
            if (byName.putIfAbsent(entry.name(), entry) != null) {
                problems.add("entry '" + entry.name() + "' is placed twice");
            }
            if (entry instanceof Pinned pinned) { // its name names its thread(s); a pool's thread is lanehost-pool:<pool>
                String nameProblem = threadNameProblem(pinned);
                if (nameProblem != null) {
                    problems.add(nameProblem);
                }
            }
            if (entry instanceof Pinned pinned && pinned.replicas() < 1) {
                problems.add("entry '" + entry.name() + "': replicas = " + pinned.replicas() + " must be at least 1");
            }
            if (entry instanceof Pooled pooled && pooled.pool().equals(MAIN_POOL)
                    && !(pooled.target() instanceof PlacementTarget.Anywhere)) {
                problems.add("entry '" + entry.name() + "': the main pool is the program's own thread, which the runtime"
                        + " neither starts nor pins, so " + pooled.target() + " would do nothing; drop it, or give the entry"
                        + " a pool of its own");
            } else if (entry instanceof Pooled pooled && !(pooled.target() instanceof PlacementTarget.Anywhere)) {
                Pooled earlier = poolAffinity.putIfAbsent(pooled.pool(), pooled);
                if (earlier != null && !earlier.target().equals(pooled.target())) {
                    problems.add("pool '" + pooled.pool() + "' is given two affinities: " + earlier.target() + " by '" + earlier.name()
                            + "' and " + pooled.target() + " by '" + pooled.name() + "'; declare it on one entry, the others inherit it");
                }
            }
            CpuSet cores;
            try {
                cores = entry.target().resolve(declared);
            } catch (IllegalArgumentException e) {
                problems.add("entry '" + entry.name() + "': " + e.getMessage());
                continue;
            }
            if (entry.target() instanceof PlacementTarget.Cores) {
                CpuSet reserved = cores.intersection(declared.reserved());
                if (!reserved.isEmpty()) {
                    problems.add("entry '" + entry.name() + "' (" + entry.target() + ") claims reserved core(s) " + reserved);
                }
            }
            if (real.available() && !cores.isEmpty()) {
                CpuSet refused = cores.minus(real.allowed());
                if (!refused.isEmpty()) {
                    problems.add("entry '" + entry.name() + "' (" + entry.target() + ") names core(s) " + refused
                            + " that this process may not use (allowed: " + real.allowed() + ")");
                }
            }
        }
        Set<String> clashing = new LinkedHashSet<>();
        for (Entry entry : entries) {
            // An entry may share its own pool's name (the same thread either way); another entry may not.
            if (entry instanceof Pooled pooled && byName.get(pooled.pool()) instanceof Entry named
                    && !(named instanceof Pooled member && member.pool().equals(pooled.pool()))
                    && clashing.add(pooled.pool())) {
                problems.add("pool '" + pooled.pool() + "' (of entry '" + entry.name() + "') has the name of entry '"
                        + named.name() + "', which is not in it; name pools and entries apart, since spawnPlaced finds both by name");
            }
        }
        if (!problems.isEmpty()) {
            throw new PlacementConfigException("invalid placement", problems);
        }
    }

    /**
     * The threads to start, in entry order, each with its mask and memory node. Call {@link #validate} first.
     *
     * @throws IllegalArgumentException if a target names something the declaration lacks
     */
    public List<ThreadPlan> resolve(TopologyDeclaration declared) {
        List<ThreadPlan> threads = new ArrayList<>();
        Map<String, Pooled> pools = poolsWithAffinity();
        Set<String> poolsStarted = new LinkedHashSet<>();
        for (Entry entry : entries) {
            switch (entry) {
                case Pinned pinned -> {
                    CpuSet cores = pinned.target().resolve(declared);
                    OptionalInt node = pinned.target().memoryNode(declared);
                    if (pinned.replicas() == 1) {
                        threads.add(new ThreadPlan(pinned.name(), pinned.name(), 0, cores, node));
                        continue;
                    }
                    for (int replica = 0; replica < pinned.replicas(); replica++) {
                        CpuSet core = cores.isEmpty() ? cores : CpuSet.of(cores.get(replica % cores.size()));
                        threads.add(new ThreadPlan(pinned.name() + "[" + replica + "]", pinned.name(), replica, core, node));
                    }
                }
                case Pooled pooled -> {
                    if (pooled.pool().equals(MAIN_POOL) || !poolsStarted.add(pooled.pool())) {
                        continue;
                    }
                    PlacementTarget target = pools.getOrDefault(pooled.pool(), pooled).target();
                    threads.add(new ThreadPlan("pool:" + pooled.pool(), pooled.pool(), 0, target.resolve(declared), target.memoryNode(declared)));
                }
            }
        }
        return threads;
    }

    /** How many threads this configuration starts, and the rule behind each count. Needs no topology. */
    public ThreadBudget threadBudget() {
        List<ThreadBudget.Line> lines = new ArrayList<>();
        Map<String, List<String>> poolMembers = new LinkedHashMap<>();
        int total = 0;
        for (Entry entry : entries) {
            switch (entry) {
                case Pinned pinned -> {
                    int threads = Math.max(0, pinned.replicas());
                    total += threads;
                    lines.add(new ThreadBudget.Line(pinned.name(), pinned.toString(), threads,
                            threads == 1 ? "pinned: its own thread" : "replicas = " + threads + ": one thread each"));
                }
                case Pooled pooled -> poolMembers.computeIfAbsent(pooled.pool(), pool -> new ArrayList<>()).add(pooled.name());
            }
        }
        for (Map.Entry<String, List<String>> pool : poolMembers.entrySet()) {
            boolean main = pool.getKey().equals(MAIN_POOL);
            int threads = main ? 0 : 1;
            total += threads;
            lines.add(new ThreadBudget.Line("pool " + pool.getKey(), String.join(", ", pool.getValue()), threads,
                    main ? "the program's own thread, not started by the runtime"
                         : "a cooperative pool is one worker, however many entries share it"));
        }
        return new ThreadBudget(lines, total);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("placement {\n");
        for (Entry entry : entries) {
            text.append("    ").append(entry.name()).append(": ").append(entry).append(";\n");
        }
        return text.append("}").toString();
    }

    private Map<String, Pooled> poolsWithAffinity() {
        Map<String, Pooled> pools = new LinkedHashMap<>();
        for (Entry entry : entries) {
            if (entry instanceof Pooled pooled && !(pooled.target() instanceof PlacementTarget.Anywhere)) {
                pools.putIfAbsent(pooled.pool(), pooled);
            }
        }
        return pools;
    }

    /** Entry and pool names: they name threads ({@code lanehost-<name>}, {@code lanehost-<name>[i]}, {@code lanehost-pool:<name>}). */
    private static final java.util.regex.Pattern SIMPLE_NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]+");
    /** The runtime's own threads' names after {@code lanehost-}: an entry named so would start a second thread of that name. */
    private static final java.util.regex.Pattern RUNTIME_THREAD = java.util.regex.Pattern.compile("timer|(worker|blocking)-[0-9]+");

    /** Why a pinned entry's name cannot name its thread ({@code lanehost-<name>}, or {@code lanehost-<name>[i]}), or null. */
    private static String threadNameProblem(Pinned pinned) {
        String name = pinned.name();
        if (!SIMPLE_NAME.matcher(name).matches()) {
            return "entry '" + name + "': a pinned entry's name is ASCII letters, digits, '_', '.' and '-' (it names its"
                    + " thread: lanehost-" + name + ")";
        }
        if (pinned.replicas() == 1 && RUNTIME_THREAD.matcher(name).matches()) {
            return "entry '" + name + "': lanehost-" + name + " is the name of one of the runtime's own threads; choose another";
        }
        return null;
    }

    private static Entry parseEntry(String statement) {
        int colon = statement.indexOf(':');
        if (colon <= 0) {
            throw new IllegalArgumentException("'" + statement + "': expected name: pinned(...) or name: cooperative(...)");
        }
        String name = statement.substring(0, colon).strip();
        String placement = statement.substring(colon + 1).strip();
        int open = placement.indexOf('(');
        String kind = (open < 0 ? placement : placement.substring(0, open)).strip();
        String args = "";
        if (open >= 0) {
            if (!placement.endsWith(")")) {
                throw new IllegalArgumentException("entry '" + name + "': missing ')' in '" + placement + "'");
            }
            args = placement.substring(open + 1, placement.length() - 1);
        }
        PlacementTarget target = PlacementTarget.ANYWHERE;
        Integer replicas = null;
        String pool = null;
        for (String arg : splitArguments(args)) {
            int equals = arg.indexOf('=');
            String key = equals < 0 ? arg : arg.substring(0, equals).strip();
            String value = equals < 0 ? "" : arg.substring(equals + 1).strip();
            switch (key) {
                case "core", "cores", "node", "l3" -> {
                    if (!(target instanceof PlacementTarget.Anywhere)) {
                        throw new IllegalArgumentException("entry '" + name + "': two targets (" + target + " and " + arg + "); give one");
                    }
                    target = PlacementTarget.parse(arg);
                }
                case "replicas" -> {
                    if (replicas != null) {
                        throw new IllegalArgumentException("entry '" + name + "': replicas given twice; give it once");
                    }
                    try {
                        replicas = Integer.parseInt(value);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("entry '" + name + "': replicas = " + value + " is not a number");
                    }
                }
                case "pool" -> {
                    if (pool != null) {
                        throw new IllegalArgumentException("entry '" + name + "': pool given twice; give it once");
                    }
                    pool = value;
                }
                default -> throw new IllegalArgumentException("entry '" + name + "': unknown argument '" + key
                        + "' (expected core, cores, node, l3, replicas or pool)");
            }
        }
        return switch (kind) {
            case "pinned" -> {
                if (pool != null) {
                    throw new IllegalArgumentException("entry '" + name + "': pool is for cooperative entries; a pinned entry owns its thread");
                }
                yield new Pinned(name, target, replicas == null ? 1 : replicas);
            }
            case "cooperative" -> {
                if (replicas != null) {
                    throw new IllegalArgumentException("entry '" + name + "': replicas is pinned-only; K entries on one pool would share its one thread");
                }
                yield new Pooled(name, pool == null ? MAIN_POOL : pool, target);
            }
            default -> throw new IllegalArgumentException("entry '" + name + "': unknown placement '" + kind + "' (expected pinned or cooperative)");
        };
    }

    /** Splits on commas outside braces, so {@code cores = {4, 5}, replicas = 2} is two arguments. */
    private static List<String> splitArguments(String args) {
        List<String> parts = new ArrayList<>();
        int depth = 0;
        int start = 0;
        for (int i = 0; i < args.length(); i++) {
            char c = args.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}') {
                depth--;
            } else if (c == ',' && depth == 0) {
                parts.add(args.substring(start, i).strip());
                start = i + 1;
            }
        }
        String last = args.substring(start).strip();
        if (!last.isEmpty() || !parts.isEmpty()) {
            parts.add(last);
        }
        parts.removeIf(String::isEmpty);
        return parts;
    }

    /** Builds a configuration in code. */
    public static final class Builder {
        private final List<Entry> entries = new ArrayList<>();

        private Builder() {
        }

        public Builder pinned(String name, PlacementTarget target) {
            return pinned(name, target, 1);
        }

        public Builder pinned(String name, PlacementTarget target, int replicas) {
            entries.add(new Pinned(name, target, replicas));
            return this;
        }

        public Builder cooperative(String name, String pool) {
            return cooperative(name, pool, PlacementTarget.ANYWHERE);
        }

        public Builder cooperative(String name, String pool, PlacementTarget target) {
            entries.add(new Pooled(name, pool, target));
            return this;
        }

        public PlacementConfig build() {
            return new PlacementConfig(entries);
        }
    }
}
