package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.callgate.InternalErrors;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import java.util.List;

/**
 * The Java half of {@code liblanehost_embed} ({@code lanehost_embed.h}): one runtime a C program started in
 * its own JVM. Only C calls it, through JNI (which ignores Java access), so nothing here is public.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>{@code lanehost_embed_start} calls {@link #start} on the host's thread. It never throws: every outcome,
 *       a failure included, is an instance, and C reads its {@link #status()} first.</li>
 *   <li>On {@code OK}, C reads {@link #tableAddress()} and keeps a global reference to the instance. Otherwise
 *       it copies {@link #failure()} into its last error and drops the instance; a failed start has already
 *       closed whatever it opened.</li>
 *   <li>{@code lanehost_embed_stop} calls {@link #stop()} once: the host ABI closes first, so a host thread
 *       still calling is answered {@code LANEHOST_CLOSED}, then the runtime, then the rings the setup exported and
 *       left open (each keeps its memory while a host reference to it is held).</li>
 * </ol>
 */
final class EmbeddedRuntime {
    private final CallStatus status;
    private final String failure;
    private final ActorRuntime runtime;
    private final HostAbi abi;

    private EmbeddedRuntime(CallStatus status, String failure, ActorRuntime runtime, HostAbi abi) {
        this.status = status;
        this.failure = failure;
        this.runtime = runtime;
        this.abi = abi;
    }

    /**
     * A HOSTED runtime, its host ABI, and the named {@link HostSetup} run against them.
     *
     * @param hostAbiVersion the {@code LANEHOST_HOST_ABI_VERSION} the C library was built with
     */
    static EmbeddedRuntime start(String setupClassName, int hostAbiVersion) {
        try {
            if (hostAbiVersion != HostAbiDescriptor.HOST_ABI_VERSION) {
                throw new EmbedFailure(CallStatus.INTERNAL_ERROR, "liblanehost_embed was built for host ABI version "
                        + hostAbiVersion + " but the lanehost-native on the class path has version "
                        + HostAbiDescriptor.HOST_ABI_VERSION + ": use the library and jar of one release");
            }
            HostSetup setup = SetupClass.instantiate(setupClassName);
            return started(setupClassName, setup);
        } catch (EmbedFailure failure) {
            return new EmbeddedRuntime(failure.status(), failure.getMessage(), null, null);
        } catch (OutOfMemoryError exhausted) {
            // The heap, or the code cache an upcall stub is made in (a table per start: lanehost's README says what
            // a start keeps): not lanehost's own fault, and the status says so.
            return new EmbeddedRuntime(CallStatus.OUT_OF_MEMORY,
                    "the JVM ran out of memory in lanehost_embed_start: " + ThrowableSummary.of(exhausted), null, null);
        } catch (Throwable fault) {
            InternalErrors.report("lanehost_embed_start", fault);
            return new EmbeddedRuntime(CallStatus.INTERNAL_ERROR,
                    "lanehost failed inside lanehost_embed_start: " + ThrowableSummary.of(fault), null, null);
        }
    }

    private static EmbeddedRuntime started(String setupClassName, HostSetup setup) throws EmbedFailure {
        ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
        HostAbi abi;
        try {
            abi = HostAbi.open(runtime);
        } catch (HostTables.Exhausted exhausted) {
            runtime.close();
            throw new EmbedFailure(CallStatus.REFUSED, exhausted.getMessage());
        } catch (Throwable fault) {
            runtime.close();
            throw fault;
        }
        try {
            setup.setup(runtime, abi);
        } catch (Throwable thrown) {
            List<HostRing> rings = List.copyOf(abi.rings.values());
            abi.close();
            runtime.close();
            closeRings(rings);
            throw EmbedFailure.setupThrew("the setup class " + setupClassName, thrown);
        }
        return new EmbeddedRuntime(CallStatus.OK, null, runtime, abi);
    }

    /**
     * {@code lanehost_embed_shutdown} is about to end the JVM: no entry of any host table, nor a function pointer
     * copied out of one, may enter it again.
     */
    static void shutDownTables() {
        HostTables.shutDown();
    }

    /** The {@code lanehost_status} of the start. */
    int status() {
        return status.code();
    }

    /** Why the start failed, or null. */
    String failure() {
        return failure;
    }

    /** The {@code const lanehost_api *} of a started runtime, or 0. */
    long tableAddress() {
        return abi == null ? 0 : abi.table().address();
    }

    /**
     * Closes the host ABI, then the runtime, then the rings the setup exported and did not close: a C-first program
     * has no Java code left to close them, so they would never be freed. A ring a host still holds a reference to
     * keeps its memory until that reference is released. Never throws: @return null, or what failed.
     */
    String stop() {
        String failed = null;
        List<HostRing> rings = List.copyOf(abi.rings.values()); // before the ABI's close empties its table
        try {
            abi.close();
        } catch (Throwable fault) {
            InternalErrors.report("lanehost_embed_stop", fault);
            failed = "closing the host ABI failed: " + ThrowableSummary.of(fault);
        }
        try {
            runtime.close();
        } catch (Throwable fault) {
            InternalErrors.report("lanehost_embed_stop", fault);
            String sentence = "closing the runtime failed: " + ThrowableSummary.of(fault);
            failed = failed == null ? sentence : failed + "; " + sentence;
        }
        String ringsFailed = closeRings(rings);
        if (ringsFailed != null) {
            failed = failed == null ? ringsFailed : failed + "; " + ringsFailed;
        }
        return failed;
    }

    /** Java's ownership of each ring let go (once the runtime's actors are torn down). @return null, or what failed */
    private static String closeRings(List<HostRing> rings) {
        String failed = null;
        for (HostRing ring : rings) {
            try {
                ring.close();
            } catch (Throwable fault) {
                InternalErrors.report("lanehost_embed_stop", fault);
                String sentence = "closing the ring '" + ring.name() + "' failed: " + ThrowableSummary.of(fault);
                failed = failed == null ? sentence : failed + "; " + sentence;
            }
        }
        return failed;
    }
}
