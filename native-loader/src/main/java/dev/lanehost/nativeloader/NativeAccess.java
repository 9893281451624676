package dev.lanehost.nativeloader;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What a refused restricted FFM call needs said: the exact {@code --enable-native-access} flag that grants it.
 *
 * <p>Under {@code --illegal-native-access=deny}, a restricted method ({@code SymbolLookup.libraryLookup},
 * {@code Linker.downcallHandle}) called from a module not named in {@code --enable-native-access} throws
 * {@code IllegalCallerException}. Nothing in the library is wrong then, and every search step would fail the same
 * way, so the loader stops and names the flag instead of listing the places it looked.
 */
public final class NativeAccess {
    private NativeAccess() {
    }

    /**
     * The flag granting native access to each of {@code modules} that lacks it (all of them if none does): e.g.
     * {@code --enable-native-access=dev.lanehost.nativeloader,dev.lanehost.affinity}, or {@code ALL-UNNAMED} for
     * code on the class path.
     */
    public static String flagFor(Module... modules) {
        return "--enable-native-access=" + String.join(",", lacking(modules));
    }

    /**
     * One sentence for a restricted call that {@code denied} refused to {@code modules} while doing {@code what}:
     * which modules lack native access, and the flag to add.
     */
    public static String deniedMessage(String what, IllegalCallerException denied, Module... modules) {
        List<String> names = lacking(modules);
        return "native access is not enabled for " + (names.size() == 1 ? "module " : "modules ") + String.join(" and ", names)
                + ", so " + what + " is refused (" + denied.getMessage() + "): add " + flagFor(modules) + " to the java command";
    }

    /** The names of {@code modules} without native access, in order and once each; every name if none lacks it. */
    private static List<String> lacking(Module... modules) {
        Set<String> names = new LinkedHashSet<>();
        for (Module module : modules) {
            if (!module.isNativeAccessEnabled()) {
                names.add(nameOf(module));
            }
        }
        if (names.isEmpty()) { // asked after the fact by a caller whose refusal came from elsewhere: name them all
            for (Module module : modules) {
                names.add(nameOf(module));
            }
        }
        return new ArrayList<>(names);
    }

    private static String nameOf(Module module) {
        return module.isNamed() ? module.getName() : "ALL-UNNAMED"; // the class path's one name for the flag
    }
}
