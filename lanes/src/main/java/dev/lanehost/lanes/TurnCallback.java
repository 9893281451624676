package dev.lanehost.lanes;

/** Work that runs as a turn of the actor that registered it (a timer, for example). */
@FunctionalInterface
public interface TurnCallback {
    void run(ActorContext context) throws Exception;
}
