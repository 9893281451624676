package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.MpscNode;

/** One thing a turn processes; the mailbox node itself, so a send allocates exactly one object. */
final class Letter extends MpscNode {
    static final int START = 0;
    static final int MESSAGE = 1;
    static final int DOWN = 2;
    static final int EXIT = 3;
    static final int TIMER = 4;
    static final int SIGNAL = 5;
    static final int PARK = 6;
    static final int TASK = 7;

    final int kind;
    /** The message, Down, Timer, Signal, Park, TurnTask, or (EXIT) the peer's ActorRef. */
    final Object payload;
    /** SIGNAL: the payload bytes; EXIT: the peer's ExitReason. */
    final Object detail;

    Letter(int kind, Object payload, Object detail) {
        this.kind = kind;
        this.payload = payload;
        this.detail = detail;
    }
}
