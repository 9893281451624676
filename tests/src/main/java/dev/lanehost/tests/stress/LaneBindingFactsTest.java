package dev.lanehost.tests.stress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.lanes.lane.LaneBinding;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * A lane's rebind log line describes one bind, never a mix of two: an observer (the lane watch) formats the facts a
 * host thread's bind wrote as plain fields, possibly while the next bind writes them again.
 *
 * <p>The state's constructor binds the lane and releases it (a first bind, never logged). The host actor then rebinds
 * it {@value #REBINDS} times, each time from another thread that is not alive ({@code leaveBoundTo}), so every bind has
 * facts of its own: the ended thread's name and id, and the backlog its bind read (bind {@code k} reads {@code k}). The
 * observer takes the log line {@value #LOOKS} times. r1: the lines it got, or -1 if one mixed two binds' facts.
 */
@JCStressTest
@Outcome(id = "-1", expect = FORBIDDEN, desc = "a line mixing the facts of two binds")
@Outcome(id = "[0-9]+", expect = ACCEPTABLE, desc = "every line describes one bind whole")
@State
public class LaneBindingFactsTest {
    static final int REBINDS = 4;
    static final int LOOKS = 8;
    /** Threads that never started: not alive, so a lane left bound to one rebinds from it as from an ended thread. */
    private static final Thread[] ENDED = new Thread[REBINDS];
    private static final Pattern LINE = Pattern.compile(
            "lane 'x' rebound from thread (.*) #(\\d+) \\(ended\\) to .* #\\d+; (\\d+) letter\\(s\\) queued carried over");

    static {
        for (int i = 0; i < REBINDS; i++) {
            ENDED[i] = Thread.ofPlatform().name("ended-" + i).unstarted(() -> { });
        }
    }

    /** Binds so far: each bind reads the backlog once, so bind k reports k letters. Bind winners only. */
    private long bindsRead;
    private final LaneBinding binding = new LaneBinding("x", true, () -> ++bindsRead);

    public LaneBindingFactsTest() {
        Thread constructor = Thread.currentThread();
        binding.acquire(constructor); // bind 1
        binding.release(constructor);
    }

    @Actor
    public void host() {
        Thread me = Thread.currentThread();
        for (int i = 0; i < REBINDS; i++) {
            binding.leaveBoundTo(ENDED[i]);
            binding.acquire(me); // bind i + 2, from ENDED[i]
            binding.release(me);
        }
    }

    @Actor
    public void observer(I_Result r) {
        int lines = 0;
        for (int look = 0; look < LOOKS; look++) {
            String line = binding.takeUnloggedRebind();
            if (line == null) {
                continue;
            }
            lines++;
            if (!describesOneBind(line)) {
                r.r1 = -1;
                return;
            }
        }
        r.r1 = lines;
    }

    private static boolean describesOneBind(String line) {
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            return false;
        }
        int i = (int) Long.parseLong(m.group(3)) - 2; // the bind that read this backlog came from ENDED[i]
        return i >= 0 && i < REBINDS && m.group(1).equals(ENDED[i].getName())
                && Long.parseLong(m.group(2)) == ENDED[i].threadId();
    }
}
