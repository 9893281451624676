package dev.lanehost.nativeabi;

/**
 * What one instance of a plugin runs in the process's lanehost runtime: {@code lanehost_guest_instantiate}
 * ({@code lanehost_guest.h}) creates the class its options name and calls {@link #setup} with the new instance.
 *
 * <pre>{@code
 * public final class DelaySetup implements GuestSetup {
 *     public void setup(GuestInstance instance) {
 *         int rate = Integer.parseInt(instance.argument("sample_rate"));
 *         HostRing input = instance.exportRing("capture", 1 << 16);
 *         HostRing output = instance.exportRing("playback", 1 << 16);
 *         instance.own(instance.runtime().spawn("delay", () -> new Delay(input, output, rate)));
 *     }
 * }
 * }</pre>
 *
 * An implementation is a public, non-abstract class with a public no-argument constructor, in the bundle's jars.
 */
@FunctionalInterface
public interface GuestSetup {
    /**
     * Builds one instance: everything it registers with {@code instance} (exports, owned actors, free hooks) is
     * closed when the host frees the instance, and nothing else. Runs on the thread that called
     * {@code lanehost_guest_instantiate}. Throwing ends the instantiation with {@code LANEHOST_CALLBACK_FAILED}
     * after closing what was registered so far.
     */
    void setup(GuestInstance instance) throws Exception;
}
