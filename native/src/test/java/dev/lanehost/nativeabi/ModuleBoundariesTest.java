package dev.lanehost.nativeabi;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.nativeloader.NativeLibraryLoader;
import dev.lanehost.ring.SpscByteRing;
import java.lang.module.ModuleDescriptor;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every product module is a named module that exports its API packages to everyone and its internals to no one
 * (the loader only to the lanehost modules that bundle a library, lanes' budget door only to call-gate). Run on the module path, as Surefire runs this
 * module's tests; on the class path every class would be in the unnamed module and this test fails.
 */
class ModuleBoundariesTest {

    @Test
    void eachProductModuleExportsItsApiAndNothingElse() {
        Map<String, String> expected = new TreeMap<>(Map.of(
                "dev.lanehost.nativeloader", "dev.lanehost.nativeloader to [dev.lanehost.affinity, dev.lanehost.nativeabi, dev.lanehost.samples]",
                "dev.lanehost.ring", "dev.lanehost.ring",
                "dev.lanehost.affinity", "dev.lanehost.affinity",
                // The gate's copy of a result is kept off the turn budget through a door only call-gate sees.
                "dev.lanehost.lanes", "dev.lanehost.lanes; dev.lanehost.lanes.budget to [dev.lanehost.callgate]",
                "dev.lanehost.callgate", "dev.lanehost.callgate; dev.lanehost.callgate.value",
                "dev.lanehost.nativeabi", "dev.lanehost.nativeabi"));
        Map<String, String> actual = new TreeMap<>();
        for (Class<?> type : new Class<?>[] {NativeLibraryLoader.class, SpscByteRing.class, Affinity.class, ActorRuntime.class,
                CallGate.class, HostAbi.class}) {
            Module module = type.getModule();
            assertTrue(module.isNamed(), type.getName() + " is in the unnamed module: the module is not on the module path");
            actual.put(module.getName(), exports(module.getDescriptor()));
        }
        assertEquals(expected, actual);
    }

    @Test
    void internalPackagesAreHiddenFromOtherModules() {
        Module lanes = ActorRuntime.class.getModule();
        Module nativeAbi = HostAbi.class.getModule();
        Module affinity = Affinity.class.getModule();
        for (String inside : new String[] {"cell", "mailbox", "turn", "lane", "scheduler", "runtime", "queue"}) {
            assertTrue(lanes.getPackages().contains("dev.lanehost.lanes." + inside), lanes.getPackages().toString());
            assertFalse(lanes.isExported("dev.lanehost.lanes." + inside, nativeAbi));
        }
        assertTrue(affinity.getPackages().contains("dev.lanehost.affinity.internal"), affinity.getPackages().toString());
        assertFalse(affinity.isExported("dev.lanehost.affinity.internal", lanes));
        Module loader = NativeLibraryLoader.class.getModule();
        assertTrue(loader.isExported("dev.lanehost.nativeloader", nativeAbi));
        assertFalse(loader.isExported("dev.lanehost.nativeloader", lanes), "lanes loads no library and must not see the loader");
        assertFalse(lanes.isExported("dev.lanehost.lanes.budget", nativeAbi), "only a gate's turn may stop charging its budget");
        assertTrue(lanes.isExported("dev.lanehost.lanes.budget", CallGate.class.getModule()));
    }

    private static String exports(ModuleDescriptor descriptor) {
        Set<String> lines = new TreeSet<>();
        for (ModuleDescriptor.Exports exports : descriptor.exports()) {
            lines.add(exports.isQualified()
                    ? exports.source() + " to " + new TreeSet<>(exports.targets())
                    : exports.source());
        }
        return lines.stream().collect(Collectors.joining("; "));
    }
}
