package dev.lanehost.callgate;

import dev.lanehost.callgate.value.CborIn;
import dev.lanehost.callgate.value.CborOut;
import dev.lanehost.lanes.ActorContext;

/**
 * What a gate opened with {@link CallGate#openCbor} runs, as a turn of its actor: it reads the call's arguments in
 * place ({@link CborIn}) and writes its result ({@link CborOut}), so a call through the CBOR entries a native host
 * uses allocates nothing, where a {@link CallHandler} is handed objects and returns one.
 *
 * <ul>
 *   <li>The arguments are one CBOR item (a call without arguments reads as null), already checked to be well-formed
 *       before the call was queued.</li>
 *   <li>The result is what the handler wrote: one whole item, or nothing for null. Anything else (two items, a map
 *       missing a value) answers {@link CallStatus#NOT_SERIALIZABLE}.</li>
 *   <li>A {@link dev.lanehost.callgate.value.PlainValueException} that leaves the handler — a read that met another
 *       type or range than asked, a write past the limit — answers the call with its status
 *       ({@code INVALID_ARGUMENT}, {@code OUT_OF_MEMORY}, {@code NOT_SERIALIZABLE}) and its message, and the actor
 *       goes on: the arguments, not the actor, were wrong. Any other throwable is {@link CallStatus#CALLBACK_FAILED}
 *       and halts the actor by the normal rules.</li>
 *   <li>The handler answers inside its turn: there is no pending result.</li>
 * </ul>
 */
@FunctionalInterface
public interface CborCallHandler {
    void handle(ActorContext context, CborIn args, CborOut result) throws Exception;
}
