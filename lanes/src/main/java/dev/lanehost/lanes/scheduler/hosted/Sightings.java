package dev.lanehost.lanes.scheduler.hosted;

/**
 * A thief's memory of what it saw waiting at the other workers: per victim, the actor and a mark of the victim's
 * progress then. A thief takes the actor only once it has seen the same actor, the mark unchanged, a number of looks
 * at that victim in a row: an actor its worker is about to take is never seen that often, one stranded (its worker
 * stayed in one run, or its thread was not running) soon is. One memory per victim, because a thief looks at every
 * victim in turn: with a single memory, two victims each holding an actor would reset each other's count at every
 * look and neither actor would ever be taken. One thief's own, one per place it looks at ({@code next} slots, doors).
 */
public final class Sightings {
    private final Object[] actors;
    private final long[] marks;
    private final int[] counts;

    /** @param victims how many workers the thief may look at, indexed from 0 */
    public Sightings(int victims) {
        actors = new Object[victims];
        marks = new long[victims];
        counts = new int[victims];
    }

    /**
     * One more look at victim {@code victim} holding {@code actor} with its progress at {@code mark}.
     *
     * @return true once this is the {@code times}-th look in a row at that victim holding the same actor at the same
     *     mark (its memory is then cleared)
     */
    public boolean again(int victim, Object actor, long mark, int times) {
        if (actor != actors[victim] || mark != marks[victim]) {
            actors[victim] = actor;
            marks[victim] = mark;
            counts[victim] = 1;
            return false;
        }
        if (++counts[victim] < times) {
            return false;
        }
        actors[victim] = null;
        return true;
    }
}
