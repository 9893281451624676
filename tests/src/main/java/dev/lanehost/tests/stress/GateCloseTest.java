package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.callgate.CallStatus;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.Profile;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A gate closing while a blocking call is in flight, its caller still spinning for the result: the caller must
 * get the handler's result or {@code CLOSED}, promptly — never wait out its timeout because the close missed it
 * (a spinning caller is in no set the close walks; it looks at the closed flag itself) — and a call the close
 * found queued must never run. The other thread drains the actor's queue once, closes the gate, and drains on until
 * the caller is done (two actors: this machine's jcstress runs no more).
 *
 * <p>r1 = the call's status: 0 OK, 1 CLOSED, 2 anything else; r2 = times the handler ran (0 or 1) by the time the
 * caller and the closer were done, or 9 if it ran after that (a queued call the close missed).
 */
@JCStressTest
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the call ran and answered before the close")
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the close came first: CLOSED, and the queued call never ran")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the close came while the handler ran: CLOSED, its result discarded")
@Outcome(id = "0, 0", expect = FORBIDDEN, desc = "OK without the handler running")
@Outcome(id = "2, .*", expect = FORBIDDEN, desc = "the caller missed the close (timed out) or got another status")
@Outcome(id = ".*, 9", expect = FORBIDDEN, desc = "a call left queued by the close ran afterwards")
@State
public class GateCloseTest {
    private final ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
    private final AtomicInteger ran = new AtomicInteger();
    private final CallGate gate;
    private volatile boolean callerDone;
    private int status;

    public GateCloseTest() {
        ActorRef actor = runtime.spawn("service", () -> (context, message) -> { });
        runtime.runUntilIdle(Duration.ZERO); // started
        gate = CallGate.open(actor, (context, args) -> ran.incrementAndGet());
    }

    @Actor
    public void caller() {
        CallStatus answered = gate.call(7, Duration.ofSeconds(5)).status();
        status = answered == CallStatus.OK ? 0 : answered == CallStatus.CLOSED ? 1 : 2;
        callerDone = true;
    }

    @Actor
    public void drainerAndCloser() {
        runtime.drain();
        gate.close();
        while (!callerDone) {
            runtime.drain();
        }
    }

    @Arbiter
    public void settle(II_Result r) {
        int before = ran.get();
        runtime.runUntilIdle(Duration.ZERO); // a call left queued would run here if the close had missed it
        r.r1 = status;
        r.r2 = ran.get() == before ? before : 9;
        runtime.close();
    }
}
