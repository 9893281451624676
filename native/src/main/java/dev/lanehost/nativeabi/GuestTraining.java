package dev.lanehost.nativeabi;

import java.util.Arrays;

/**
 * The training run that makes a plugin bundle's ahead-of-time cache (JDK 25's {@code -XX:AOTCacheOutput}): it starts
 * the guest runtime as the first {@code lanehost_guest_instantiate} does and makes and frees an instance of the given
 * setup class, so the classes a plugin's first instance loads are in the cache. The guest uses
 * {@code <bundle>/lanehost.aot} when it is there. Run it with the bundle's class path, exactly as the guest builds it
 * (every jar of {@code <bundle>/lib}, in name order, by absolute path): a cache made with another class path is
 * refused by the JVM, which then starts without it.
 *
 * <pre>
 * java -XX:AOTCacheOutput=BUNDLE/lanehost.aot --enable-native-access=ALL-UNNAMED -Xrs \
 *      -cp "$(ls BUNDLE/lib/*.jar | paste -sd:)" dev.lanehost.nativeabi.GuestTraining com.example.DelaySetup key=value...
 * </pre>
 */
public final class GuestTraining {
    private GuestTraining() {
    }

    public static void main(String[] args) {
        if (args.length < 1) {
            System.err.println("usage: GuestTraining <setup class> [key=value...]");
            System.exit(2);
        }
        GuestRuntime instance = GuestRuntime.instantiate(args[0], Arrays.copyOfRange(args, 1, args.length));
        if (instance.status() != 0) {
            System.err.println("GuestTraining: " + instance.failure());
            System.exit(1);
        }
        String failed = GuestRuntime.free(instance.id());
        if (failed != null) {
            System.err.println("GuestTraining: " + failed);
            System.exit(1);
        }
        System.exit(0); // the runtime's threads would keep the JVM alive; the cache is written at exit
    }
}
