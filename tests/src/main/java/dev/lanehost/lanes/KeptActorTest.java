package dev.lanehost.lanes;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.CellRun;
import dev.lanehost.lanes.mailbox.Letter;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.ZZZ_Result;
import org.openjdk.jcstress.infra.results.ZI_Result;
import org.openjdk.jcstress.infra.results.ZZ_Result;
import org.openjdk.jcstress.infra.results.ZZI_Result;

/**
 * A worker keeps the last actor it ran scheduled, its mailbox empty, at a door of its own: a sender's letter then finds
 * it scheduled and queues nothing. Keeping the next swaps it in and takes the one before back. (In lanes' package, on the class path, to
 * reach the runtime's package-private context.)
 */
public class KeptActorTest {
    private static final ActorRuntime RUNTIME = ActorRuntime.create(Profile.SINGLE_THREAD);

    /** Two workers, not started: each test's threads play their parts. */
    static WorkerPool pool() {
        return new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE, Affinity.unavailable("stress test"), null);
    }

    static ActorCell cell(WorkerPool pool, Worker home) {
        return cell(pool, home, 1, "kept");
    }

    static ActorCell cell(WorkerPool pool, Worker home, long id, String name) {
        return cell(pool, home, id, name, (context, message) -> { });
    }

    static ActorCell cell(WorkerPool pool, Worker home, long id, String name, Behavior behavior) {
        return new ActorCell(id, name, Placement.NORMAL, RUNTIME.context(), home.shared, pool, null,
                RUNTIME.context().defaultBudget, RUNTIME.context().mailboxCapacity, SpawnOptions.DEFAULT,
                () -> behavior);
    }

    /**
     * Runs {@code cell}'s start on {@code owner}, which keeps it at its door; a letter finds it scheduled (queued, nobody
     * told); {@code thief} has seen it there one sighting short of taking it.
     */
    static void keptWithALetterSeen(Worker owner, Worker thief, ActorCell cell) {
        owner.kept.run(cell, 1, false);
        cell.offer("letter");
        for (int i = 1; i < Worker.DOOR_SIGHTINGS; i++) {
            if (thief.asThief.keptAt(owner) != null) {
                throw new IllegalStateException("the thief took the actor before its last sighting");
            }
        }
    }

    /**
     * The worker lets the kept actor go ({@code CellRun.release}) as a letter comes: the actor must end up queued
     * exactly once — by the sender, which found it idle, or by the release, which found the letter — never twice (two
     * runners) and never not at all (a letter nobody runs). The release's unschedule is a CAS that fails on a letter
     * queued or being queued; a plain idle mark in its place loses the letter here.
     */
    @JCStressTest
    @Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "queued once, by the sender or by the release")
    @Outcome(id = "0, 1", expect = FORBIDDEN, desc = "the letter is queued and the actor is not: nobody runs it")
    @Outcome(id = "2, 1", expect = FORBIDDEN, desc = "queued twice: two runners")
    @Outcome(expect = FORBIDDEN, desc = "the letter was refused, or lost")
    @State
    public static class ReleaseVersusLetter {
        private final WorkerPool pool = pool();
        private final Worker worker = pool.worker(0);
        private final ActorCell kept = cell(pool, worker);

        public ReleaseVersusLetter() {
            kept.mailbox.tryLockTurn(); // a kept actor: the worker holds its schedule and its turn lock
            kept.mailbox.take(); // the start letter, run: its mailbox is empty
        }

        @Actor
        public void sender() {
            kept.offer("letter");
        }

        @Actor
        public void worker() {
            CellRun.release(kept);
        }

        /** r1 = how often the actor is in the worker's queue; r2 = letters in its mailbox. */
        @Arbiter
        public void arbiter(II_Result r) {
            int queued = 0;
            for (ActorCell cell; (cell = worker.shared.pollShared()) != null; ) {
                if (cell == kept) {
                    queued++;
                }
            }
            r.r1 = queued;
            r.r2 = (int) kept.mailbox.depth();
        }
    }

    /**
     * The kept actor has a letter; its worker takes it back from its door while a spinning thief, which has seen it
     * there once already, steals it: exactly one of them gets it. r1 = the worker got it; r2 = the thief did.
     */
    @JCStressTest
    @Outcome(id = "true, false", expect = ACCEPTABLE, desc = "its worker runs it")
    @Outcome(id = "false, true", expect = ACCEPTABLE, desc = "the thief runs it")
    @Outcome(id = "true, true", expect = FORBIDDEN, desc = "both run the actor")
    @Outcome(id = "false, false", expect = FORBIDDEN, desc = "nobody runs the actor's letter")
    @State
    public static class TakeVersusSteal {
        private final WorkerPool pool = pool();
        private final Worker owner = pool.worker(0);
        private final Worker thief = pool.worker(1);
        private final ActorCell kept = cell(pool, owner);

        public TakeVersusSteal() {
            keptWithALetterSeen(owner, thief, kept);
        }

        @Actor
        public void owner(ZZ_Result r) {
            r.r1 = owner.kept.withWork() == kept;
        }

        @Actor
        public void thief(ZZ_Result r) {
            r.r2 = thief.asThief.keptAt(owner) == kept;
        }
    }

    /**
     * The worker keeps a second actor, swapping it in at the door, as a spinning thief (which has seen the first there
     * with its letter once already) steals the first: exactly one of them gets the first, and the second is at the
     * door either way. The swap is a CAS on the door's word; a read of the first then a plain store of the second gives
     * the first to both. r1 = the worker's swap took the first back; r2 = the thief got it; r3 = the second is kept.
     */
    @JCStressTest
    @Outcome(id = "true, false, true", expect = ACCEPTABLE, desc = "the swap took it back: the worker runs it next")
    @Outcome(id = "false, true, true", expect = ACCEPTABLE, desc = "the thief runs it; the worker placed the second")
    @Outcome(id = "true, true, true", expect = FORBIDDEN, desc = "both run the first")
    @Outcome(id = "false, false, true", expect = FORBIDDEN, desc = "nobody runs the first's letter")
    @Outcome(expect = FORBIDDEN, desc = "the second is not at the door (its next letter waits), or worse")
    @State
    public static class SwapVersusSteal {
        private final WorkerPool pool = pool();
        private final Worker owner = pool.worker(0);
        private final Worker thief = pool.worker(1);
        private final ActorCell first = cell(pool, owner, 1, "first");
        private final ActorCell second = cell(pool, owner, 2, "second");

        public SwapVersusSteal() {
            keptWithALetterSeen(owner, thief, first);
        }

        @Actor
        public void owner(ZZZ_Result r) {
            owner.kept.run(second, 1, true); // its start, then kept: swapped in at the door (as from the next slot)
            r.r1 = owner.kept.takeBack() == first;
        }

        @Actor
        public void thief(ZZZ_Result r) {
            r.r2 = thief.asThief.keptAt(owner) == first;
        }

        @Arbiter
        public void arbiter(ZZZ_Result r) {
            second.offer("letter");
            r.r3 = owner.kept.withWork() == second;
        }
    }

    /**
     * The same race inside a run: the worker runs a second actor from its next slot, which empties its mailbox, and
     * the run goes on with the first (kept at the door, a letter waiting) by swapping the two at the door, as a spinning
     * thief (one sighting short) steals the first and runs what it finds. Exactly one of them runs the first's letter.
     * (The thief may still take the first afterwards, back at the door with its mailbox empty, on a stale look at it: a
     * run with nothing to run.) r1 = the worker's run went on with the first (two turns: the second's start, the first's
     * letter); r2 = the thief's run of the first took its letter; r3 = the first's turns in all.
     */
    @JCStressTest
    @Outcome(id = "true, false, 1", expect = ACCEPTABLE, desc = "the run swapped the first in and ran its letter")
    @Outcome(id = "false, true, 1", expect = ACCEPTABLE, desc = "the thief ran it; the run ended with the second kept")
    @Outcome(id = "true, true, 2", expect = FORBIDDEN, desc = "both ran the first's letter")
    @Outcome(expect = FORBIDDEN, desc = "the first's letter run by nobody, or twice")
    @State
    public static class SwapInARunVersusSteal {
        private final WorkerPool pool = pool();
        private final Worker owner = pool.worker(0);
        private final Worker thief = pool.worker(1);
        private final AtomicInteger firstTurns = new AtomicInteger();
        private final ActorCell first = cell(pool, owner, 1, "first", (context, message) -> firstTurns.incrementAndGet());
        private final ActorCell second = cell(pool, owner, 2, "second");

        public SwapInARunVersusSteal() {
            keptWithALetterSeen(owner, thief, first);
            firstTurns.set(0); // its start ran in the setup: count its letter only
        }

        @Actor
        public void owner(ZZI_Result r) {
            r.r1 = owner.kept.run(second, 16, true) == 2; // as from the next slot: a pair's way, swaps in the run
        }

        @Actor
        public void thief(ZZI_Result r) {
            ActorCell taken = thief.asThief.keptAt(owner);
            r.r2 = taken == first && taken.run(16) == 1;
        }

        @Arbiter
        public void arbiter(ZZI_Result r) {
            r.r3 = firstTurns.get();
        }
    }

    /**
     * A letter comes for the kept actor as its worker looks for work: the worker takes the actor back only once the
     * letter is there to take. Its look reads the slot the letter lands in (acquire), not the senders' claim of the
     * place, which comes before the letter is stored: a look at the claim took the actor back for a run that found
     * nothing to run, and put it back in its queue. A look that comes first leaves the letter for the next.
     * r1 = the worker took the actor back; r2 = what its mailbox then gave (1 the letter, 0 nothing, -1 the next look
     * missed it too).
     */
    @JCStressTest
    @Outcome(id = "true, 1", expect = ACCEPTABLE, desc = "taken back, with its letter")
    @Outcome(id = "false, 0", expect = ACCEPTABLE, desc = "the look came first: the next one takes it back")
    @Outcome(id = "true, 0", expect = FORBIDDEN, desc = "taken back for a letter not yet stored: a run with nothing to run")
    @Outcome(expect = FORBIDDEN, desc = "the letter lost, or garbled")
    @State
    public static class LookVersusLetter {
        private final WorkerPool pool = pool();
        private final Worker worker = pool.worker(0);
        private final ActorCell kept = cell(pool, worker);

        public LookVersusLetter() {
            worker.kept.run(kept, 1, false); // its start: kept at the worker's door, its mailbox empty
        }

        @Actor
        public void sender() {
            kept.offer("letter");
        }

        @Actor
        public void worker(ZI_Result r) {
            r.r1 = worker.kept.withWork() == kept;
            if (r.r1) {
                r.r2 = letterTaken();
            }
        }

        @Arbiter
        public void arbiter(ZI_Result r) {
            if (!r.r1) {
                r.r2 = worker.kept.withWork() == kept && letterTaken() == 1 ? 0 : -1;
            }
        }

        /** 1 if the mailbox gives the sender's letter, 0 if nothing, 2 for anything else. */
        private int letterTaken() {
            Letter letter = kept.mailbox.take();
            return letter == null ? 0 : letter instanceof Letter.Message message && "letter".equals(message.message) ? 1 : 2;
        }
    }
}
