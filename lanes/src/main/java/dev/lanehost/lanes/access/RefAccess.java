package dev.lanehost.lanes.access;

/**
 * {@code ActorRef}'s parts, for the actor's cell.
 *
 * @param <R> the handle, {@code ActorRef}
 * @param <A> what it addresses, the {@code Addressee} seam
 */
public interface RefAccess<R, A> {
    R newRef(A cell);

    A addressee(R ref);
}
