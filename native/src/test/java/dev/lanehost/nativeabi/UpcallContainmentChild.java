package dev.lanehost.nativeabi;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.callgate.value.PlainCodec;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import dev.lanehost.testhost.TestHost;
import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM of {@link UpcallContainmentTest}: one handler that throws, called from a C pthread either
 * behind a raw FFM upcall stub ({@code raw}: the exception escapes the upcall and the JVM ends) or behind the
 * host function table ({@code table}: {@code gate_call} answers {@code CALLBACK_FAILED} and this JVM carries
 * on). Runs only as its own process: the raw case kills the JVM it runs in.
 */
public final class UpcallContainmentChild {
    /** In the handler's exception, so the parent can find it in the child's output. */
    static final String FAILURE = "the containment handler failed on purpose";
    /** Printed only if the JVM survives the raw upcall. */
    static final String SURVIVED = "the JVM survived the raw upcall";
    /** Printed before the table's answer. */
    static final String TABLE_ANSWER = "gate_call answered: ";

    private UpcallContainmentChild() {
    }

    /** The handler both cases call. */
    static Object failOnPurpose(Object args) {
        throw new IllegalStateException(FAILURE + " (args " + args + ")");
    }

    /** The raw upcall's target: a plain static method, nothing between it and the stub. */
    static int rawUpcall(long argument) {
        failOnPurpose(argument);
        return 0;
    }

    public static void main(String[] args) throws Throwable {
        switch (args.length == 1 ? args[0] : "") {
            case "raw" -> raw();
            case "table" -> table();
            default -> {
                System.out.println("usage: UpcallContainmentChild raw|table");
                System.exit(2);
            }
        }
    }

    private static void raw() throws ReflectiveOperationException {
        MemorySegment stub = Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(UpcallContainmentChild.class,
                "rawUpcall", MethodType.methodType(int.class, long.class)), TestHost.UPCALL, Arena.global());
        TestHost.callOnNewThread(stub, 7, 1);
        System.out.println(SURVIVED);
        System.exit(0);
    }

    private static void table() throws Exception {
        int status;
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime);
             Arena arena = Arena.ofConfined()) {
            long gate = abi.exportGate("contained", CallGate.open(runtime.spawn("contained", () -> (context, message) -> { }),
                    (context, callArgs) -> failOnPurpose(callArgs)));
            MemorySegment gateCall = abi.table().get(ADDRESS, HostAbiDescriptor.GATE_CALL_OFFSET);
            byte[] encoded = new PlainCodec().encode("from a C pthread");
            MemorySegment callArgs = arena.allocate(encoded.length);
            MemorySegment.copy(encoded, 0, callArgs, JAVA_BYTE, 0, encoded.length);
            MemorySegment result = arena.allocate(256);
            MemorySegment resultLength = arena.allocate(JAVA_LONG);
            status = TestHost.gateCallOnNewThread(MemorySegment.NULL, gateCall, gate, callArgs, encoded.length, result,
                    result.byteSize(), resultLength, TimeUnit.SECONDS.toNanos(30));
        }
        System.out.println(TABLE_ANSWER + CallStatus.ofCode(status) + " (" + status + ")");
        System.exit(0);
    }
}
