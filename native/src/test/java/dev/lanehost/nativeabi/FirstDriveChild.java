package dev.lanehost.nativeabi;

import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ActorRuntime;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.lanes.Profile;
import dev.lanehost.testhost.TestHost;
import dev.lanehost.testhost.TestHost.HostThread;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedMethod;
import jdk.jfr.consumer.RecordingFile;

/**
 * The child JVM of {@link FirstDriveTest}: a host's first real drive from a new thread, after the warm-up a host
 * follows, with the classes it loads and the deoptimizations it takes on that thread recorded by Flight Recorder.
 * A fresh JVM, so nothing another test ran has already linked or loaded what the drive needs.
 *
 * <ol>
 *   <li>A host warm-up pthread: {@code thread_warm_up}, then {@value #WARM_DRIVES} drives of a scratch lane through
 *       the table (one in {@value #RELEASE_EVERY} followed by {@code lane_release}, as the JACK sample's warm drives do), then the
 *       real lane driven once (its actor starts there) and released.</li>
 *   <li>A message for the real lane's actor.</li>
 *   <li>A new pthread, as JACK's process thread after an activation: {@code thread_warm_up} (its thread-init hook),
 *       then, recorded, its first {@code lane_drive} of the real lane: a rebind that runs the message.</li>
 * </ol>
 * Prints one line per class loaded or defined and per deoptimization on that thread during that drive, then a
 * summary line the parent reads ({@link #SUMMARY}).
 */
public final class FirstDriveChild {
    static final String SUMMARY = "first drive summary: ";
    static final int WARM_DRIVES = 20_000;
    /** As the JACK sample's warm drives: now and then a release, so a drive binds the lane anew through the table. */
    static final int RELEASE_EVERY = 1_024;
    private static final int OK = 0;

    private FirstDriveChild() {
    }

    /** @param args the host's warm drives of a scratch lane after the warm-up, {@value #WARM_DRIVES} if none given */
    public static void main(String[] args) throws Exception {
        int warmDrives = args.length > 0 ? Integer.parseInt(args[0]) : WARM_DRIVES;
        try (ActorRuntime runtime = ActorRuntime.create(Profile.HOSTED);
             HostAbi abi = HostAbi.open(runtime)) {
            ExecutionLane lane = runtime.registerLane("audio");
            long audio = abi.exportLane(lane);
            long scratch = abi.exportLane(runtime.registerLane("scratch"));
            AtomicLong handled = new AtomicLong();
            ActorRef synth = runtime.spawnOnLane("audio", "synth", () -> (context, message) -> handled.incrementAndGet());
            ActorRef warm = runtime.spawnOnLane("scratch", "warm", () -> (context, message) -> { });

            try (HostThread warmUp = TestHost.startHostThread(abi.table())) {
                check(warmUp.run(HostThread.WARM_UP, 0, 0, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0,
                        MemorySegment.NULL), "thread_warm_up on the warm-up thread");
                for (int i = 0; i < warmDrives; i++) {
                    warm.tell(i);
                    check(warmUp.drive(scratch, 8, MemorySegment.NULL), "warm drive " + i);
                    if (i % RELEASE_EVERY == RELEASE_EVERY - 1) {
                        check(release(warmUp, scratch), "release of the scratch lane");
                    }
                }
                check(warmUp.drive(audio, 0, MemorySegment.NULL), "the real lane's drive on the warm-up thread");
                check(release(warmUp, audio), "release of the real lane");
            }
            synth.tell("first");

            Path file = Files.createTempFile("first-drive", ".jfr");
            int status;
            try (HostThread process = TestHost.startHostThread(abi.table());
                 Recording recording = new Recording()) {
                check(process.run(HostThread.WARM_UP, 0, 0, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0,
                        MemorySegment.NULL), "thread_warm_up on the new thread");
                recording.enable("jdk.ClassLoad");
                recording.enable("jdk.ClassDefine");
                recording.enable("jdk.Deoptimization");
                recording.start();
                status = process.drive(audio, 8, MemorySegment.NULL);
                recording.stop();
                recording.dump(file);
                long driver = lane.boundThread().threadId();
                List<String> seen = new ArrayList<>();
                int classes = 0;
                int deoptimizations = 0;
                for (RecordedEvent event : RecordingFile.readAllEvents(file)) {
                    if (event.getThread() == null || event.getThread().getJavaThreadId() != driver) {
                        continue;
                    }
                    String name = event.getEventType().getName();
                    if (name.equals("jdk.Deoptimization")) {
                        deoptimizations++;
                        RecordedMethod method = event.getValue("method");
                        seen.add("deoptimization: " + (method == null ? "?" : method.getType().getName() + "." + method.getName())
                                + " line " + event.getValue("lineNumber") + " bci "
                                + event.getValue("bci") + " " + event.getValue("instruction") + " " + event.getValue("reason") + " "
                                + event.getValue("action"));
                    } else {
                        classes++;
                        Object type = name.equals("jdk.ClassLoad") ? event.getValue("loadedClass") : event.getValue("definedClass");
                        seen.add(name + ": " + type);
                    }
                }
                seen.forEach(System.out::println);
                System.out.println(SUMMARY + "status " + status + ", classes " + classes + ", deoptimizations " + deoptimizations
                        + ", handled " + handled.get() + ", rebinds " + lane.rebinds());
            } finally {
                Files.deleteIfExists(file);
            }
        }
    }

    private static int release(HostThread thread, long lane) {
        return thread.run(HostThread.RELEASE, lane, 0, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0, MemorySegment.NULL, 0,
                MemorySegment.NULL);
    }

    private static void check(int status, String what) {
        if (status != OK) {
            throw new IllegalStateException(what + " answered status " + status);
        }
    }
}
