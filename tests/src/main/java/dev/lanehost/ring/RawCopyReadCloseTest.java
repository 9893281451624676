package dev.lanehost.ring;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A ring's close against a long read copied by {@code memcpy} from the ring's raw address ({@link RawCopy}, the
 * consumer's guard): the reader raises its flag and looks for the close; the closer raises its flag, fences the
 * reader's thread and waits for the flag to fall, and then — standing in for the memory being freed and reused —
 * writes a marker into the data. A copy that starts after the closer stopped waiting may read the marker: the
 * forbidden outcome, a read of freed memory. (In lanehost's package, on the class path, to reach the guard.)
 *
 * <p>r1 = 1 if the reader copied, 0 if it found the ring closed; r2 = the last byte the reader copied out (the data
 * holds zeros until the closer's marker, 1, lands in its last byte; -1 if nothing was copied).
 */
@JCStressTest
@Outcome(id = "1, 0", expect = ACCEPTABLE, desc = "the copy ran before the close finished waiting")
@Outcome(id = "0, -1", expect = ACCEPTABLE, desc = "the reader found the ring closing and copied nothing")
@Outcome(id = "1, 1", expect = FORBIDDEN, desc = "the copy ran after the close stopped waiting: freed memory read")
@State
public class RawCopyReadCloseTest {
    private static final int LENGTH = (int) RawCopy.MIN_PIECE;

    private final MemorySegment data = Arena.ofAuto().allocate(LENGTH, 128);
    private final RawCopy guard = RawCopyGuards.forOwnMemory(data);
    private final byte[] out = new byte[LENGTH];

    @Actor
    public void reader(II_Result r) {
        out[LENGTH - 1] = -1;
        try {
            guard.enter(); // as a ring's read does around everything it touches
            try {
                guard.toArray(out, 0, 0, LENGTH);
            } finally {
                guard.exit();
            }
            r.r1 = 1;
        } catch (IllegalStateException closed) {
            r.r1 = 0;
        }
        r.r2 = out[LENGTH - 1];
    }

    @Actor
    public void closer() {
        guard.closeAndWait();
        data.set(JAVA_BYTE, LENGTH - 1, (byte) 1);
    }
}
