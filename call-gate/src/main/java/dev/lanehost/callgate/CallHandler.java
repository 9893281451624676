package dev.lanehost.callgate;

import dev.lanehost.lanes.ActorContext;

/**
 * What a gate runs, as a turn of its actor. It receives the call's arguments as plain values (null,
 * Boolean, Long, Double, String, byte[], List, Map) and returns a plain value, or a
 * {@link java.util.concurrent.CompletionStage} of one (the blocking entry waits for it; {@code callOnLane}
 * refuses it with {@link CallStatus#CALLBACK_SUSPENDED}).
 */
@FunctionalInterface
public interface CallHandler {
    Object handle(ActorContext context, Object args) throws Exception;
}
