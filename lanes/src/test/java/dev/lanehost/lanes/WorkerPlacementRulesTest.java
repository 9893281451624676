package dev.lanehost.lanes;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.lanehost.affinity.Affinity;
import dev.lanehost.affinity.AffinityPolicy;
import dev.lanehost.lanes.cell.ActorCell;
import dev.lanehost.lanes.cell.RunQueue;
import dev.lanehost.lanes.scheduler.hosted.Worker;
import dev.lanehost.lanes.scheduler.hosted.WorkerPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool's rules for where a normal actor made runnable goes, checked on a pool whose workers are not started
 * (the test's thread plays every role), so no timing decides the outcome: off the pool, to its home or to a
 * spinning worker's door; the spinner limit; when a parked worker is woken to steal.
 */
class WorkerPlacementRulesTest {
    private final ActorRuntime runtime = ActorRuntime.create(Profile.SINGLE_THREAD);
    private final WorkerPool pool = new WorkerPool(2, IdleStrategy.DEFAULT, AffinityPolicy.NONE,
            Affinity.unavailable("placement rules test"), null);
    private final Worker zero = pool.worker(0);
    private final Worker one = pool.worker(1);

    @AfterEach
    void close() {
        runtime.close();
    }

    private ActorCell homedOn(Worker worker) {
        ActorCell cell = new ActorCell(1, "target", Placement.NORMAL, runtime.context(), worker.shared, pool, null,
                runtime.context().defaultBudget, runtime.context().mailboxCapacity, SpawnOptions.DEFAULT,
                () -> (context, message) -> { });
        assertTrue(cell.isScheduled(), "a new cell is held by its creator, as the caller of scheduled() must hold it");
        return cell;
    }

    /** What a worker does as it starts to spin idle. */
    private static void spins(Worker worker) {
        worker.spinning = true;
        worker.handOff.open();
    }

    @Test
    void anActorMadeRunnableOffThePoolIsHandedToASpinningWorkerWhenItsHomeIsNotSpinning() {
        spins(one);
        ActorCell cell = homedOn(zero);
        pool.scheduled(cell);
        assertSame(one.shared, cell.home, "re-homed on the spinner");
        assertEquals(0, one.shared.depth(), "handed in at the door, not queued");
        assertEquals(0, zero.shared.depth());
        assertSame(cell, one.handOff.take(), "the spinner finds it at its door");
        assertNull(one.handOff.take(), "taking it closed the door");
    }

    @Test
    void itStaysHomeWhenItsHomeSpinsOrNobodyDoes() {
        ActorCell idleHome = homedOn(zero);
        pool.scheduled(idleHome);
        assertSame(zero.shared, idleHome.home, "no spinner: home");
        assertEquals(1, zero.shared.depth(), "no open door: queued");

        spins(zero);
        spins(one);
        ActorCell spinningHome = homedOn(zero);
        pool.scheduled(spinningHome);
        assertSame(zero.shared, spinningHome.home, "its home spins: home");
        assertSame(spinningHome, zero.handOff.close(), "handed in at its home's door");
        assertEquals(0, one.shared.depth());
        assertNull(one.handOff.close());
    }

    @Test
    void anActorFindingEveryDoorTakenOrClosedIsQueued() {
        spins(zero);
        ActorCell first = homedOn(zero);
        pool.scheduled(first);
        ActorCell second = homedOn(zero);
        pool.scheduled(second); // zero's door holds the first; nobody else spins
        assertSame(zero.shared, second.home);
        assertEquals(1, zero.shared.depth(), "the second waits in the queue");
        assertSame(first, zero.handOff.take());

        zero.handOff.open();
        assertNull(zero.handOff.close(), "an empty door closes empty");
        ActorCell third = homedOn(zero);
        pool.scheduled(third);
        assertEquals(2, zero.shared.depth(), "a closed door takes nothing");
    }

    @Test
    void aSpinningThiefTakesAnActorThatWaitsAtAnotherSpinnersDoorOnlyAfterSeeingItThereLong() {
        spins(zero);
        spins(one);
        ActorCell cell = homedOn(zero);
        pool.scheduled(cell);
        for (int look = 1; look < Worker.DOOR_SIGHTINGS; look++) {
            assertNull(one.asThief.handedInAt(zero), "look " + look + ": zero may still take it");
        }
        assertSame(cell, one.asThief.handedInAt(zero), "zero has not looked at its door for as long: it is not running");
        assertSame(one.shared, cell.home, "homed on the thief");
        assertTrue(zero.handOff.isOpen(), "zero still spins: its door stays open, and empty");
        assertNull(zero.handOff.take());
    }

    @Test
    void aThiefTakesStrandedActorsFromTwoVictimsAtOnceItsCountsKeptPerVictim() {
        WorkerPool three = new WorkerPool(3, IdleStrategy.DEFAULT, AffinityPolicy.NONE,
                Affinity.unavailable("placement rules test"), null);
        Worker a = three.worker(0);
        Worker b = three.worker(1);
        Worker thief = three.worker(2);
        ActorCell inA = homedOn(a);
        ActorCell inB = homedOn(b);
        a.runNext(inA); // both owners stay in one run: their slots' actors are stranded
        b.runNext(inB);
        spins(a);
        spins(b);
        ActorCell atA = homedOn(a);
        ActorCell atB = homedOn(b);
        assertTrue(a.handOff.handIn(atA));
        assertTrue(b.handOff.handIn(atB));
        // The thief looks at every victim in turn, as WorkerPool.stealNext does.
        for (int look = 1; look < Worker.STUCK_SIGHTINGS; look++) {
            assertNull(thief.asThief.fromSlotOf(a), "look " + look);
            assertNull(thief.asThief.fromSlotOf(b), "look " + look);
        }
        assertSame(inA, thief.asThief.fromSlotOf(a), "seen in a's slot at every look at a");
        assertSame(inB, thief.asThief.fromSlotOf(b), "seen in b's slot at every look at b");
        for (int look = 1; look < Worker.DOOR_SIGHTINGS; look++) {
            assertNull(thief.asThief.handedInAt(a), "look " + look);
            assertNull(thief.asThief.handedInAt(b), "look " + look);
        }
        assertSame(atA, thief.asThief.handedInAt(a));
        assertSame(atB, thief.asThief.handedInAt(b));
    }

    @Test
    void aThiefGetsNothingFromADoorWhoseWorkerTookTheActor() {
        spins(zero);
        spins(one);
        ActorCell cell = homedOn(zero);
        pool.scheduled(cell);
        for (int look = 1; look < Worker.DOOR_SIGHTINGS; look++) {
            one.asThief.handedInAt(zero);
        }
        assertSame(cell, zero.handOff.take(), "the owner looks first");
        assertNull(one.asThief.handedInAt(zero));
        assertSame(zero.shared, cell.home);
    }

    @Test
    void aLoneActorQueuedOnABusyWorkerWakesNobodyASecondWakesAParkedWorker() {
        parks(one);
        pool.scheduled(homedOn(zero)); // zero is busy (neither parked nor spinning): its run will end soon enough
        assertTrue(one.parked, "one actor queued: no wake-up");
        assertEquals(0, one.wakeUps());
        pool.scheduled(homedOn(zero));
        assertFalse(one.parked, "two queued: a parked worker is woken to steal");
        assertEquals(1, one.wakeUps());
    }

    @Test
    void theBudgetWatchWakesAParkedWorkerForAnActorQueuedOnAWorkerStillInTheSameRun() {
        parks(one);
        pool.scheduled(homedOn(zero));
        pool.rescueStuckWork(); // the first look only remembers
        assertTrue(one.parked);
        pool.rescueStuckWork(); // zero has finished no run since, and the actor still waits
        assertFalse(one.parked, "woken to steal it");
        assertEquals(1, one.wakeUps());
    }

    @Test
    void theBudgetWatchLeavesAQueueAloneWhoseWorkerFinishedARunSinceItsLastLook() {
        parks(one);
        ActorCell first = homedOn(zero);
        pool.scheduled(first);
        pool.rescueStuckWork();
        assertSame(first, zero.shared.pollShared());
        zero.runEnded(1); // the worker ran it: a run ended between the two looks
        pool.scheduled(homedOn(zero));
        pool.rescueStuckWork();
        assertTrue(one.parked, "the queue moved: nothing is stuck");
    }

    @Test
    void theBudgetWatchMovesAnActorStuckInASlotToTheSharedQueueAndWakesAParkedWorkerToStealIt() {
        parks(one);
        ActorCell woken = homedOn(zero);
        zero.runNext(woken); // a turn on zero made it runnable, and that turn goes on
        pool.rescueStuckWork(); // the first look only remembers
        assertSame(woken, zero.nextInSlot());
        pool.rescueStuckWork(); // zero has finished no run since, and the actor still waits in its slot
        assertNull(zero.nextInSlot(), "out of the slot: a thief that parks at once never looks at slots");
        assertEquals(1, zero.shared.depth(), "queued where any thief takes it at its first look");
        assertFalse(one.parked, "woken to steal it");
        assertSame(woken, zero.shared.stealInto(one.shared, WorkerPool.MAX_STEAL));
    }

    @Test
    void theBudgetWatchMovesAKeptActorWithALetterFromAWorkerStillInTheSameRunAndWakesAParkedWorker() {
        parks(one);
        ActorCell kept = homedOn(zero);
        assertEquals(1, zero.kept.run(kept, 1, false), "its start: kept at zero's door");
        zero.runEnded(1);
        assertEquals(Delivery.QUEUED, kept.offer("letter")); // it finds the actor scheduled: nothing queued, nobody woken
        assertTrue(one.parked);
        pool.rescueStuckWork(); // the first look only remembers
        assertEquals(0, zero.shared.depth());
        pool.rescueStuckWork(); // zero has finished no run since, and the letter still waits
        assertFalse(one.parked, "woken to steal it");
        assertEquals(1, zero.shared.depth(), "off the door, queued where any thief takes it at its first look");
        assertFalse(kept.mailbox.isTurnLocked(), "its kept turn lock let go: whoever polls it locks it");
        assertNull(zero.kept.withWork(), "the door is empty: its owner does not run it too");
        assertSame(kept, zero.shared.stealInto(one.shared, WorkerPool.MAX_STEAL));
    }

    @Test
    void theBudgetWatchLeavesAKeptActorAloneWhoseWorkerFinishedARunSinceItsLastLook() {
        parks(one);
        ActorCell kept = homedOn(zero);
        zero.kept.run(kept, 1, false);
        assertEquals(Delivery.QUEUED, kept.offer("letter"));
        pool.rescueStuckWork();
        zero.runEnded(1); // a new run: the owner takes it back at its next look
        pool.rescueStuckWork();
        assertTrue(one.parked);
        assertEquals(0, zero.shared.depth());
        assertSame(kept, zero.kept.withWork());
    }

    @Test
    void theBudgetWatchLeavesASlotAloneWhoseWorkerFinishedARunSinceItsLastLook() {
        parks(one);
        ActorCell woken = homedOn(zero);
        zero.runNext(woken);
        pool.rescueStuckWork();
        zero.runEnded(1); // the slot's actor is still there, but zero is in a new run: it will take it next
        pool.rescueStuckWork();
        assertSame(woken, zero.nextInSlot());
        assertEquals(0, zero.shared.depth());
        assertTrue(one.parked);
    }

    @Test
    void aStealMovesOnlyReadyActorsTheSlowOnesWaitBehindTheirWorkersReadyOnes() {
        for (int i = 0; i < 4; i++) {
            zero.shared.offer(homedOn(zero), RunQueue.READY_BAND);
        }
        for (int i = 0; i < 6; i++) {
            zero.shared.offer(homedOn(zero), RunQueue.SLOW_BAND); // asked to yield: behind every ready actor
        }
        assertTrue(zero.shared.stealInto(one.shared, WorkerPool.MAX_STEAL) != null);
        assertEquals(1, one.shared.depth(RunQueue.READY_BAND), "half of the three ready actors left, rounded down");
        assertEquals(0, one.shared.depth(RunQueue.SLOW_BAND), "no slow actor moved");
        assertEquals(2, zero.shared.depth(RunQueue.READY_BAND));
        assertEquals(6, zero.shared.depth(RunQueue.SLOW_BAND));
    }

    /** A worker (never started) as its park protocol leaves it parked. */
    private void parks(Worker worker) {
        worker.parked = true;
        pool.idle.parking(1);
    }

    @Test
    void atMostHalfThePoolSpinsAtOnceAndAtLeastOne() {
        assertTrue(pool.idle.claimSpin());
        assertFalse(pool.idle.claimSpin(), "two workers: one spinner");
        pool.idle.spinEnded();
        assertTrue(pool.idle.claimSpin(), "a spinner that stopped leaves room");
        WorkerPool busySpinning = new WorkerPool(2, IdleStrategy.busySpin(), AffinityPolicy.NONE,
                Affinity.unavailable("placement rules test"), null);
        assertTrue(busySpinning.idle.claimSpin());
        assertTrue(busySpinning.idle.claimSpin(), "busy spin: every worker spins");
    }
}
