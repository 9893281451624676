package dev.lanehost.ring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A ring's close against a write at the ring's raw address ({@link RawCopy}), here a long piece copied by
 * {@code memcpy} (the header words and short pieces of a write lie under the same guard): the writer raises its flag
 * and looks for the close ({@code enter}), copies, and lowers the flag ({@code exit}); the closer raises its flag, fences the writer's thread
 * ({@code membarrier}) and waits for the writer's flag to fall, and then — standing in for the memory being freed
 * and reused — writes a marker into the data. A copy that starts after the closer stopped waiting would land on the
 * marker: the forbidden outcome, a write into freed memory. Without the fence (the writer's load passing its own
 * store) both can miss each other. (In lanehost's package, on the class path, to reach the guard.)
 *
 * <p>r1 = 1 if the writer copied, 0 if it found the ring closed; r2 = the first data byte at the end (the writer
 * copies zeros, the closer's marker is 1).
 */
@JCStressTest
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "the copy ran before the close finished waiting")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the writer found the ring closing and copied nothing")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "the copy landed after the close stopped waiting: freed memory written")
@State
public class RawCopyCloseTest {
    private static final byte[] ZEROS = new byte[(int) RawCopy.MIN_PIECE];

    private final MemorySegment data = Arena.ofAuto().allocate(RawCopy.MIN_PIECE, 128);
    private final RawCopy guard = RawCopyGuards.forOwnMemory(data);

    @Actor
    public void writer(II_Result r) {
        try {
            guard.enter(); // as a ring's write does around everything it touches
            try {
                guard.fromArray(ZEROS, 0, 0, ZEROS.length);
            } finally {
                guard.exit();
            }
            r.r1 = 1;
        } catch (IllegalStateException closed) {
            r.r1 = 0;
        }
    }

    @Actor
    public void closer() {
        guard.closeAndWait();
        data.set(JAVA_BYTE, 0, (byte) 1);
    }

    @Arbiter
    public void arbiter(II_Result r) {
        r.r2 = data.get(JAVA_BYTE, 0);
    }
}
