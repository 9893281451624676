package dev.lanehost.lanes;

import dev.lanehost.lanes.internal.MpscNode;

/**
 * One thing a turn handles, one final class per kind with typed fields; the letter is also its own
 * mailbox node, so a send allocates exactly one object.
 *
 * <p>The kinds are a sealed hierarchy of final classes rather than records because a record cannot
 * extend {@link MpscNode}, and a record wrapped in a node would cost a second allocation per send. Every
 * field is final; the queue's release/acquire link publishes them to the consumer.
 */
abstract sealed class Letter extends MpscNode {

    /** The first letter of every actor: make the behaviour and run {@code started}, on the placement. */
    static final class Start extends Letter {
    }

    /** A message sent with {@link ActorRef#tell}. */
    static final class Message extends Letter {
        final Object message;

        Message(Object message) {
            this.message = message;
        }
    }

    /** A monitored actor ended; the behaviour receives the {@link dev.lanehost.lanes.Down} as a message. */
    static final class DownNotice extends Letter {
        final Down down;

        DownNotice(Down down) {
            this.down = down;
        }
    }

    /** A linked peer ended abnormally: this actor halts with {@link ExitReason.Linked}. */
    static final class Exit extends Letter {
        final ActorRef peer;
        final ExitReason reason;

        Exit(ActorRef peer, ExitReason reason) {
            this.peer = peer;
            this.reason = reason;
        }
    }

    /** A timer fell due. */
    static final class TimerDue extends Letter {
        final Timer timer;

        TimerDue(Timer timer) {
            this.timer = timer;
        }
    }

    /** A signal fired, with its own copy of the payload. */
    static final class SignalFired extends Letter {
        final Signal signal;
        final byte[] payload;

        SignalFired(Signal signal, byte[] payload) {
            this.signal = signal;
            this.payload = payload;
        }
    }

    /** A park was completed; its value waits in the park. */
    static final class ParkCompleted extends Letter {
        final Park<?> park;

        ParkCompleted(Park<?> park) {
            this.park = park;
        }
    }

    /** A task submitted with {@link ActorRef#submit}. */
    static final class Task extends Letter {
        final TurnTask task;

        Task(TurnTask task) {
            this.task = task;
        }
    }
}
