package dev.lanehost.nativeabi;

import dev.lanehost.callgate.CallStatus;
import dev.lanehost.callgate.InternalErrors;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import java.util.HashMap;
import java.util.Map;

/**
 * The Java half of {@code lanehost_guest.h}: the process's one runtime for plugins, and their instances. Only C
 * calls it, through JNI, so nothing here is public.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>{@code lanehost_guest_instantiate} calls {@link #instantiate} on the host's thread. The first call creates a
 *       HOSTED runtime (its threads' priority from {@link GuestPriority}) and its host ABI, which then live for the rest of
 *       the process (a process has one JVM, and plugins come and go). It never throws: every outcome, a failure included, is an instance whose
 *       {@link #status()} C reads first.</li>
 *   <li>On {@code OK}, C keeps {@link #id()}, {@link #name()} and {@link #tableAddress()}; otherwise it copies
 *       {@link #failure()}. A failed setup has closed what it registered.</li>
 *   <li>{@code lanehost_guest_free} calls {@link #free} once with the id.</li>
 * </ol>
 */
final class GuestRuntime {
    private static ActorRuntime runtime;
    private static HostAbi abi;
    private static final Map<Long, GuestInstance> INSTANCES = new HashMap<>();
    private static long instantiated;

    private final CallStatus status;
    private final String failure;
    private final long id;
    private final String name;

    private GuestRuntime(CallStatus status, String failure, long id, String name) {
        this.status = status;
        this.failure = failure;
        this.id = id;
        this.name = name;
    }

    /** A new instance of the plugin whose setup class is {@code setupClassName}; {@code arguments} are "key=value". */
    static synchronized GuestRuntime instantiate(String setupClassName, String[] arguments) {
        try {
            Map<String, String> parsed = parse(arguments);
            GuestSetup setup = SetupClass.instantiate(setupClassName, GuestSetup.class);
            if (runtime == null) {
                runtime = ActorRuntime.builder(Profile.HOSTED).priority(GuestPriority.fromProperty()).build();
                GuestPriority.logRefusals(runtime);
                abi = HostAbi.open(runtime);
            }
            long id = ++instantiated;
            String simple = setupClassName.substring(setupClassName.lastIndexOf('.') + 1);
            simple = simple.substring(simple.lastIndexOf('$') + 1);
            GuestInstance instance = new GuestInstance(runtime, abi, simple + "#" + id, parsed);
            try {
                setup.setup(instance);
            } catch (Throwable thrown) {
                instance.free();
                throw EmbedFailure.setupThrew("the setup class " + setupClassName, thrown);
            }
            INSTANCES.put(id, instance);
            return new GuestRuntime(CallStatus.OK, null, id, instance.name());
        } catch (EmbedFailure failure) {
            return new GuestRuntime(failure.status(), failure.getMessage(), 0, null);
        } catch (OutOfMemoryError exhausted) {
            return new GuestRuntime(CallStatus.OUT_OF_MEMORY,
                    "the JVM ran out of memory in lanehost_guest_instantiate: " + ThrowableSummary.of(exhausted), 0, null);
        } catch (Throwable fault) {
            InternalErrors.report("lanehost_guest_instantiate", fault);
            return new GuestRuntime(CallStatus.INTERNAL_ERROR,
                    "lanehost failed inside lanehost_guest_instantiate: " + ThrowableSummary.of(fault), 0, null);
        }
    }

    /** Frees instance {@code id}: closes what it registered. Never throws. @return null, or what failed */
    static synchronized String free(long id) {
        GuestInstance instance = INSTANCES.remove(id);
        if (instance == null) {
            return "no instance " + id + " is live";
        }
        try {
            return instance.free();
        } catch (Throwable fault) {
            InternalErrors.report("lanehost_guest_free", fault);
            return "freeing " + instance.name() + " failed: " + ThrowableSummary.of(fault);
        }
    }

    /** Instances live now, for tests. */
    static synchronized int liveInstances() {
        return INSTANCES.size();
    }

    private static Map<String, String> parse(String[] arguments) throws EmbedFailure {
        Map<String, String> parsed = new HashMap<>();
        for (String argument : arguments) {
            int equals = argument.indexOf('=');
            if (equals <= 0) {
                throw new EmbedFailure(CallStatus.INVALID_ARGUMENT, "the argument '" + argument + "' is not key=value");
            }
            if (parsed.put(argument.substring(0, equals), argument.substring(equals + 1)) != null) {
                throw new EmbedFailure(CallStatus.INVALID_ARGUMENT, "the argument key '" + argument.substring(0, equals)
                        + "' is given twice");
            }
        }
        return parsed;
    }

    int status() {
        return status.code();
    }

    String failure() {
        return failure;
    }

    long id() {
        return id;
    }

    String name() {
        return name;
    }

    long tableAddress() {
        return abi == null ? 0 : abi.table().address();
    }
}
