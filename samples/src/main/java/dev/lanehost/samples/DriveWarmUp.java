package dev.lanehost.samples;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.nativeabi.HostAbi;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/** {@link AudioPathProbe}'s warm-up of the drive path before its JACK clients are activated ({@code --warm-drives}). */
final class DriveWarmUp {
    /** The warm-up drives' pause, and the letters' pace meanwhile: about a letter a drive, so some drives run turns and some find none. */
    private static final long WARM_PAUSE_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

    private DriveWarmUp() {
    }

    /**
     * Before the clients are activated: real drives of a scratch lane from an ordinary C thread of the lanehost client
     * (after the table's thread warm-up), while a Java thread sends its actor letters at about the rate the drives
     * come, so C2 compiles the drive and turn path — a lane binding to a new thread, drives that run turns and drives
     * that find nothing — from what real drives do, before JACK's process thread makes its first drive.
     */
    static void run(ActorRuntime runtime, HostAbi abi, JackClient probe, int drives) {
        ExecutionLane scratch = runtime.registerLane("audio-warm");
        abi.exportLane(scratch);
        AtomicLong handled = new AtomicLong();
        ActorRef actor = runtime.spawnOnLane("audio-warm", "warm", () -> (context, message) -> handled.incrementAndGet());
        AtomicBoolean sending = new AtomicBoolean(true);
        AtomicLong sent = new AtomicLong();
        Thread sender = Thread.ofPlatform().name("warm-sender").start(() -> {
            while (sending.get()) {
                actor.tell(sent.getAndIncrement());
                LockSupport.parkNanos(WARM_PAUSE_NANOS); // pacing, not synchronisation
            }
        });
        long start = System.nanoTime();
        long turns;
        try {
            turns = probe.warmDrives("audio-warm", drives, WARM_PAUSE_NANOS);
        } finally {
            sending.set(false);
            try {
                sender.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        System.out.printf("drive path warmed before activation: %,d drives of lane 'audio-warm' from an ordinary C thread, %,d turns"
                        + " (%,d letters sent), %.0f ms%n", drives, turns, sent.get(), (System.nanoTime() - start) / 1e6);
        actor.kill();
    }
}
