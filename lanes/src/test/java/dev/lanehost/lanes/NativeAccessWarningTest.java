package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.lanes.nativeaccess.PolicyWithoutNativeAccessProgram;
import dev.lanehost.testsupport.ChildJvm;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A runtime asked to pin its workers, in a JVM that denies native access to the modules that would do it: it starts,
 * unpinned, and says so at WARNING with the exact flag to add. Native access is fixed at JVM start, and this test's JVM
 * grants it, so a child runs on the module path (real module names in the flag) with {@code --illegal-native-access=deny}.
 */
class NativeAccessWarningTest {

    @Test
    void withoutNativeAccessForEitherModuleTheWarningNamesBoth(@TempDir Path dir) throws Exception {
        String printed = runChild(dir, null);
        assertTrue(printed.contains("WARNING"), printed);
        assertTrue(printed.contains("affinity policy BEST_EFFORT cannot be applied"), printed);
        assertTrue(printed.contains("add --enable-native-access=dev.lanehost.nativeloader,dev.lanehost.affinity "), printed);
        assertTrue(printed.contains("worker-0: FELL_BACK"), printed);
    }

    @Test
    void withNativeAccessForTheLoaderOnlyTheWarningNamesTheAffinityModule(@TempDir Path dir) throws Exception {
        String printed = runChild(dir, "dev.lanehost.nativeloader");
        assertTrue(printed.contains("affinity policy BEST_EFFORT cannot be applied"), printed);
        assertTrue(printed.contains("add --enable-native-access=dev.lanehost.affinity "), printed);
        assertTrue(printed.contains("worker-0: FELL_BACK"), printed);
    }

    /** The child's output; {@code granted} is the one module given native access, or null for none. */
    private static String runChild(Path dir, String granted) throws Exception {
        List<String> command = new ArrayList<>(List.of(ChildJvm.java(), "--illegal-native-access=deny"));
        if (granted != null) {
            command.add("--enable-native-access=" + granted);
        }
        command.addAll(List.of("-p", modulePath(), "--add-modules", "dev.lanehost.lanes",
                "-cp", System.getProperty("lanehost.testClasses"), PolicyWithoutNativeAccessProgram.class.getName()));
        ChildJvm.Finished child = ChildJvm.run(command, dir.resolve("output.txt"));
        assertEquals(0, child.exitCode(), child.printed());
        return child.printed();
    }

    /** This module's classes and the modules it needs, as this test's JVM has them. */
    private static String modulePath() {
        return System.getProperty("lanehost.mainClasses") + File.pathSeparator + System.getProperty("jdk.module.path");
    }
}
