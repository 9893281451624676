package dev.lanehost.lanes;

/**
 * A thief's memory of what it saw waiting at another worker: the worker, the actor, and a mark of the victim's
 * progress then. A thief takes the actor only once it has seen the same three a number of looks in a row: an actor
 * its worker is about to take is never seen that often, one stranded (its worker stayed in one run, or its thread
 * was not running) soon is. One thief's own, one per place it looks at ({@code next} slots, doors).
 */
final class Sightings {
    private Object victim;
    private Object actor;
    private long mark;
    private int count;

    /**
     * One more look at {@code victim} holding {@code actor} with its progress at {@code mark}.
     *
     * @return true once this is the {@code times}-th look in a row at the same three (the memory is then cleared)
     */
    boolean again(Object victim, Object actor, long mark, int times) {
        if (victim != this.victim || actor != this.actor || mark != this.mark) {
            this.victim = victim;
            this.actor = actor;
            this.mark = mark;
            count = 1;
            return false;
        }
        if (++count < times) {
            return false;
        }
        this.actor = null;
        return true;
    }
}
