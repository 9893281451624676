/**
 * The API's package-private parts as the runtime's other packages reach them, in the JDK's "shared secrets" manner:
 * one small interface per API class, which that class implements in its static initializer and hands to
 * {@link dev.lanehost.lanes.access.Access}; a caller keeps the one it needs in a static final field, so the JIT binds
 * the call as it bound the member. Not API; the module does not export it. It calls nothing, and imports nothing of
 * the API: each interface is generic over the API class and the parts its members take (the runtime's types too,
 * where they name the API), and the caller's field gives the types ({@code RefAccess<ActorRef, Addressee>}), so the
 * API's classes and the runtime both point down at this package and it points back at neither. {@code Access}
 * initializes an API class by its name.
 */
package dev.lanehost.lanes.access;
