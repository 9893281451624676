package dev.lanehost.samples.gst;

import dev.lanehost.callgate.CallGate;
import dev.lanehost.lanes.ActorRef;
import dev.lanehost.lanes.ExecutionLane;
import dev.lanehost.nativeabi.GuestInstance;
import dev.lanehost.nativeabi.GuestSetup;

/**
 * The Java half of the GStreamer element {@code lanehostoverlay} ({@code samples/src/main/c/gst/gstlanehostoverlay.c}):
 * one instance per element, created by {@code lanehost_guest_instantiate} when the element first starts.
 *
 * <p>It registers the lane "frames", which only the element's streaming thread drives, an actor on it that owns a
 * {@link FrameOverlay}, and three gates on that actor, all called with {@code gate_call_on_lane} from the
 * streaming thread: "overlay" ({@code [0xRRGGBB, strength]}: the element's properties, sent before the next frame
 * after they change), "frame" (one mapped video frame, processed in place; answers the frames processed so far)
 * and "stats" ({@code [frames, crc32, sequenceErrors]}, asked at end of stream).
 */
public final class OverlaySetup implements GuestSetup {
    /** Public with no arguments: the guest layer creates it by name. */
    public OverlaySetup() {
    }

    @Override
    public void setup(GuestInstance instance) {
        ExecutionLane lane = instance.registerLane("frames");
        FrameOverlay overlay = new FrameOverlay();
        // The actor only hosts the gates' turns: all its work arrives as gate calls.
        ActorRef actor = instance.own(instance.runtime().spawnOnLane(lane.name(), instance.exported("overlay"),
                () -> (context, message) -> { }));
        instance.exportGate("overlay", CallGate.open(actor, (context, args) -> {
            overlay.configure(args);
            return null;
        }));
        instance.exportGate("frame", CallGate.open(actor, (context, args) -> overlay.process(args)));
        instance.exportGate("stats", CallGate.open(actor, (context, args) -> overlay.stats()));
    }
}
