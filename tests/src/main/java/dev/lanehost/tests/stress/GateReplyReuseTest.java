package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallReply;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import java.lang.foreign.MemorySegment;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A caller keeps one {@link CallReply}, whose calls are reused from one call to the next: it calls gate A, then gate
 * B, while another thread drains the actor and closes gate A. The close may answer the first call {@code CLOSED};
 * it must never reach the second call, even when that call reuses the first one's object (a close that still held
 * the first call in its copy of parked callers, and withdrew whatever the object had become).
 *
 * <p>r1 = the first call's status, r2 = the second's: 0 OK, 1 CLOSED, 2 anything else.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "the first call answered before the close; the second OK")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the close answered the first call; the second OK")
@Outcome(id = ".*, [12]", expect = FORBIDDEN, desc = "the close of gate A reached the call to gate B, or it failed")
@Outcome(id = "2, .*", expect = FORBIDDEN, desc = "the first call timed out or got another status")
@State
public class GateReplyReuseTest {
    private static final long TIMEOUT = Duration.ofSeconds(5).toNanos();
    private final ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
    private final CallGate gateA;
    private final CallGate gateB;
    private final CallReply reply = new CallReply();
    private volatile boolean callerDone;
    private int first;
    private int second;

    public GateReplyReuseTest() {
        ActorRef actor = runtime.spawn("service", () -> (context, message) -> { });
        runtime.runUntilIdle(Duration.ZERO); // started
        gateA = CallGate.openCbor(actor, (context, in, out) -> out.writeLong(1));
        gateB = CallGate.openCbor(actor, (context, in, out) -> out.writeLong(2));
    }

    @Actor
    public void caller() {
        first = code(gateA.callEncoded(MemorySegment.NULL, 0, 0, TIMEOUT, reply));
        second = code(gateB.callEncoded(MemorySegment.NULL, 0, 0, TIMEOUT, reply));
        if (second == 0 && (reply.resultLength() != 1 || reply.resultArray()[0] != 2)) {
            second = 2; // OK, but not gate B's answer
        }
        callerDone = true;
    }

    @Actor
    public void drainerAndCloser() {
        runtime.drain();
        gateA.close();
        while (!callerDone) {
            runtime.drain();
        }
    }

    private static int code(CallStatus status) {
        return status == CallStatus.OK ? 0 : status == CallStatus.CLOSED ? 1 : 2;
    }

    @Arbiter
    public void settle(II_Result r) {
        r.r1 = first;
        r.r2 = second;
        runtime.close();
    }
}
