package dev.lanehost.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** Seed 003's topology { } and placement { } blocks: validation, resolution, the thread budget. */
class PlacementConfigTest {
    /** Seed 003's example, on a 16-CPU box that lets the process use everything. */
    private static final TopologyDeclaration SEED_EXAMPLE = TopologyDeclaration.builder()
            .reserve("0..2")
            .node(0, node -> node.l3("fast", "4..8").l3("slow", "8..12"))
            .node(1, node -> node.l3("heavy", "12..16"))
            .build();
    private static final Topology SIXTEEN = Affinity.system().topology(Fixtures.SYSFS.resolve("two-sockets"), CpuSet.parse("0-15"));

    @Test
    void nodeIsTheUnionOfItsDomainsAndL3KnowsItsNode() {
        assertEquals(CpuSet.parse("4-11"), SEED_EXAMPLE.coresOfNode(0).orElseThrow());
        assertEquals(OptionalInt.of(1), SEED_EXAMPLE.nodeOfL3("heavy"));
        assertEquals(CpuSet.parse("0-1"), SEED_EXAMPLE.reserved());
    }

    @Test
    void declarationErrorsAreAllReportedAtOnce() {
        PlacementConfigException thrown = assertThrows(PlacementConfigException.class, () -> TopologyDeclaration.builder()
                .reserve("0..=1")
                .node(0, node -> node.l3("fast", "0..4").l3("slow", "3..6"))
                .node(0, node -> node.l3("fast", "8..9"))
                .node(1, node -> node.l3("9lives", "10"))
                .build());
        assertEquals(List.of(
                "node 0 is declared twice",
                "L3 domain 'fast' claims reserved core(s) 0-1",
                "core 3 is in two L3 domains: 'fast' and 'slow'",
                "L3 domain 'fast' is declared twice (in node 0 and node 0); names must be unique so l3 = fast is unambiguous",
                "L3 domain name '9lives' is not an identifier (letters, digits, _; not starting with a digit)"), thrown.problems());
        assertTrue(thrown.getMessage().startsWith("invalid topology declaration: 5 problems:"), thrown.getMessage());
    }

    @Test
    void placementParsesTheSeedsForms() {
        PlacementConfig placement = PlacementConfig.parse("""
                gateway: pinned(core = 2);          // own thread, pinned to core 2
                workers: pinned(cores = 4..12, replicas = 8);
                matcher: pinned(l3 = fast);
                region:  pinned(node = 0);
                metrics: cooperative(pool = io, cores = {2, 3});
                logs:    cooperative(pool = io);
                ui:      cooperative(pool = render)
                shell:   cooperative
                """);
        assertEquals(8, placement.entries().size());
        assertEquals(new PlacementConfig.Pinned("workers", new PlacementTarget.Cores(CpuSet.parse("4-11")), 8), placement.entries().get(1));
        assertEquals(new PlacementConfig.Pooled("shell", "main", PlacementTarget.ANYWHERE), placement.entries().get(7));
        assertEquals("pinned(cores = {4..=11}, replicas = 8)", placement.entries().get(1).toString());
    }

    @Test
    void parseErrorsNameTheLineTheColumnAndTheProblem() {
        PlacementConfigException thrown = assertThrows(PlacementConfigException.class, () -> PlacementConfig.parse("""
                a: cooperative(pool = io, replicas = 2);
                b: pinned(core = 1, node = 0);
                c: pinned(colour = red);
                d: floating;
                ok: pinned(core = 2);  e: pinned(core = 3
                f: pinned(replicas = 2, replicas = 3)
                g: cooperative(pool = a, pool = b)
                """));
        assertEquals(List.of(
                "line 1, column 1: entry 'a': replicas is pinned-only; K entries on one pool would share its one thread",
                "line 2, column 1: entry 'b': two targets (core = 1 and node = 0); give one",
                "line 3, column 1: entry 'c': unknown argument 'colour' (expected core, cores, node, l3, replicas or pool)",
                "line 4, column 1: entry 'd': unknown placement 'floating' (expected pinned or cooperative)",
                "line 5, column 24: entry 'e': missing ')' in 'pinned(core = 3'",
                "line 6, column 1: entry 'f': replicas given twice; give it once",
                "line 7, column 1: entry 'g': pool given twice; give it once"), thrown.problems());
    }

    @Test
    void namesThatCannotNameTheirOwnThreadAreRefusedAllAtOnce() {
        PlacementConfig placement = PlacementConfig.parse("""
                worker-0: pinned(core = 0)
                timer: pinned(core = 0)
                s[1]: pinned(core = 0)
                two words: pinned(core = 0)
                audit: cooperative(pool = blocking-3)
                worker-1: pinned(core = 0, replicas = 2)
                in main: cooperative()
                """);
        PlacementConfigException thrown = assertThrows(PlacementConfigException.class,
                () -> placement.validate(TopologyDeclaration.none(), Topology.unavailable("no machine in this test")));
        assertEquals(List.of(
                "entry 'worker-0': lanehost-worker-0 is the name of one of the runtime's own threads; choose another",
                "entry 'timer': lanehost-timer is the name of one of the runtime's own threads; choose another",
                "entry 's[1]': a pinned entry's name is ASCII letters, digits, '_', '.' and '-' (it names its thread:"
                        + " lanehost-s[1])",
                "entry 'two words': a pinned entry's name is ASCII letters, digits, '_', '.' and '-' (it names its thread:"
                        + " lanehost-two words)"),
                thrown.problems(), "a pool's thread is lanehost-pool:<pool>; replicas are <name>[i]; main's entries have none");
    }

    @Test
    void validationReportsUnknownDomainsReservedAndDisallowedCores() {
        Topology contained = Affinity.system().topology(Fixtures.SYSFS.resolve("two-sockets"), CpuSet.parse("0-7"));
        PlacementConfig placement = PlacementConfig.parse("""
                a: pinned(l3 = fastest);
                b: pinned(node = 3);
                c: pinned(core = 1);
                d: pinned(l3 = heavy);
                a: pinned(replicas = 0);
                e: cooperative(pool = io, core = 4);
                f: cooperative(pool = io, core = 5);
                """);
        PlacementConfigException thrown = assertThrows(PlacementConfigException.class, () -> placement.validate(SEED_EXAMPLE, contained));
        assertEquals(List.of(
                "entry 'a': l3 = fastest names an L3 domain the topology does not declare (declared: [fast, slow, heavy])",
                "entry 'b': node = 3 names a node the topology does not declare (declared: [0, 1])",
                "entry 'c' (core = 1) claims reserved core(s) 1",
                "entry 'd' (l3 = heavy) names core(s) 12-15 that this process may not use (allowed: 0-7)",
                "entry 'a' is placed twice",
                "entry 'a': replicas = 0 must be at least 1",
                "pool 'io' is given two affinities: core = 4 by 'e' and core = 5 by 'f'; declare it on one entry, the others inherit it"),
                thrown.problems());
    }

    @Test
    void aPoolNamedLikeAnEntryAndAnAffinityOnTheMainPoolAreRefused() {
        PlacementConfig placement = PlacementConfig.parse("""
                io: pinned(core = 4);
                x: cooperative(pool = io, core = 5);
                y: cooperative(pool = io);
                ui: cooperative(pool = main, core = 6);
                db: cooperative(pool = db);
                """);
        PlacementConfigException thrown = assertThrows(PlacementConfigException.class, () -> placement.validate(SEED_EXAMPLE, SIXTEEN));
        assertEquals(List.of(
                "entry 'ui': the main pool is the program's own thread, which the runtime neither starts nor pins, so core = 6"
                        + " would do nothing; drop it, or give the entry a pool of its own",
                "pool 'io' (of entry 'x') has the name of entry 'io', which is not in it; name pools and entries apart, since"
                        + " spawnPlaced finds both by name"),
                thrown.problems());
    }

    @Test
    void replicasGoRoundRobinOverTheTargetsCoresAndNodeTargetsCarryMemory() {
        PlacementConfig placement = PlacementConfig.parse("""
                workers: pinned(cores = 4..7, replicas = 5);
                region:  pinned(node = 0);
                matcher: pinned(l3 = heavy, replicas = 2);
                loose:   pinned(replicas = 2);
                metrics: cooperative(pool = io);
                logs:    cooperative(pool = io, cores = 2..4);
                ui:      cooperative;
                """);
        placement.validate(SEED_EXAMPLE, SIXTEEN);
        List<String> plan = placement.resolve(SEED_EXAMPLE).stream().map(ThreadPlan::toString).toList();
        assertEquals(List.of(
                "workers[0] -> CPUs 4", "workers[1] -> CPUs 5", "workers[2] -> CPUs 6", "workers[3] -> CPUs 4", "workers[4] -> CPUs 5",
                "region -> CPUs 4-11, memory on node 0",
                "matcher[0] -> CPUs 12, memory on node 1", "matcher[1] -> CPUs 13, memory on node 1",
                "loose[0] -> unpinned", "loose[1] -> unpinned",
                "pool:io -> CPUs 2-3"), plan);
    }

    @Test
    void threadBudgetCountsPinnedReplicasAndPoolsBeforeAnythingRuns() {
        PlacementConfig placement = PlacementConfig.parse("""
                gateway: pinned(core = 1);
                workers: pinned(cores = 4..12, replicas = 8);
                metrics: cooperative(pool = io);
                logs:    cooperative(pool = io);
                ui:      cooperative;
                """);
        ThreadBudget budget = placement.threadBudget();
        assertEquals(10, budget.total());
        assertEquals(List.of(
                new ThreadBudget.Line("gateway", "pinned(core = 1)", 1, "pinned: its own thread"),
                new ThreadBudget.Line("workers", "pinned(cores = {4..=11}, replicas = 8)", 8, "replicas = 8: one thread each"),
                new ThreadBudget.Line("pool io", "metrics, logs", 1, "a cooperative pool is one worker, however many entries share it"),
                new ThreadBudget.Line("pool main", "ui", 0, "the program's own thread, not started by the runtime")), budget.lines());
        assertTrue(budget.toString().startsWith("thread budget: 10 threads\n"), budget.toString());
    }

    @Test
    void declarationMatchingTheMachineHasNoWarnings() {
        TopologyDeclaration matching = TopologyDeclaration.builder()
                .node(0, node -> node.l3("a", "0-1,8-9").l3("b", "2-3,10-11"))
                .node(1, node -> node.l3("c", "4-5,12-13"))
                .build();
        assertEquals(List.of(), matching.checkAgainst(SIXTEEN));
    }

    @Test
    void declarationAgainstAnotherMachineWarnsOnEachMismatch() {
        assertEquals(List.of(
                "L3 domain 'fast' (4-7) spans several real L3 caches: 4-5,12-13 and 6-7,14-15",
                "L3 domain 'slow' (8-11) spans several real L3 caches: 0-1,8-9 and 2-3,10-11",
                "L3 domain 'heavy' (12-15) spans several real L3 caches: 4-5,12-13 and 6-7,14-15",
                "node 0 declares core(s) 4-7 that are on another NUMA node here (node 0 holds 0-3,8-11)"),
                SEED_EXAMPLE.checkAgainst(SIXTEEN)); // node 1's 12-15 is on real node 1: no warning
        Topology small = Affinity.system().topology(Fixtures.SYSFS.resolve("offline-no-numa"), CpuSet.parse("0-2"));
        assertEquals(List.of(
                "L3 domain 'fast' declares core(s) 4-7 that do not exist on this machine (online: 0-2)",
                "L3 domain 'slow' declares core(s) 8-11 that do not exist on this machine (online: 0-2)",
                "L3 domain 'heavy' declares core(s) 12-15 that do not exist on this machine (online: 0-2)"), SEED_EXAMPLE.checkAgainst(small));
    }
}
