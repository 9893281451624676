package dev.lanehost.nativeabi;

import dev.lanehost.lanes.ActorRuntime;

/**
 * What a C program that embeds the JVM runs to give itself something to drive: {@code lanehost_embed_start}
 * ({@code lanehost_embed.h}) starts a HOSTED runtime and its host ABI, creates the class named by
 * {@code lanehost_embed_options.setup_class} and calls {@link #setup}; the host then looks up, by name, what
 * it exported.
 *
 * <pre>{@code
 * public final class FrameSetup implements HostSetup {
 *     public void setup(ActorRuntime runtime, HostAbi abi) {
 *         abi.exportLane(runtime.registerLane("frame"));
 *         ActorRef sprite = runtime.spawnOnLane("frame", "sprite", Sprite::new);
 *         abi.exportGate("input", CallGate.open(sprite, (context, args) -> ...));
 *     }
 * }
 * }</pre>
 *
 * An implementation is a public, non-abstract class with a public no-argument constructor, found by its
 * binary name ({@code com.example.Outer$Inner} for a nested class) on the JVM's class path.
 */
@FunctionalInterface
public interface HostSetup {
    /**
     * Exports the lanes, gates, signals and rings the host will look up. Rings exported here and still open when
     * {@code lanehost_embed_stop} runs are closed for the setup (after the runtime), so a setup need not keep them;
     * each frees its memory once the host releases its references. Runs once, on the thread that called
     * {@code lanehost_embed_start}, before the host receives the table. Throwing (here or in the constructor)
     * ends that start with {@code LANEHOST_CALLBACK_FAILED}: the runtime closes again, and the exception's class
     * and message become {@code lanehost_embed_last_error()}.
     */
    void setup(ActorRuntime runtime, HostAbi abi) throws Exception;
}
