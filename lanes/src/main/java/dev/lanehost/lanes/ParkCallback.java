package dev.lanehost.lanes;

/** Runs as a turn of the park's owner when the park is completed. */
@FunctionalInterface
public interface ParkCallback<T> {
    void completed(ActorContext context, T value) throws Exception;
}
