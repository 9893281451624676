package dev.lanehost.lanes;

/** Runs as a turn of the signal's owner each time the signal fires. */
@FunctionalInterface
public interface SignalCallback {
    /** @param payload a copy of the bytes given to {@link Signal#fire(byte[])}, or an empty array */
    void fired(ActorContext context, byte[] payload) throws Exception;
}
