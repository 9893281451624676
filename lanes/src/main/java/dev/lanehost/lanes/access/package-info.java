/**
 * The API's package-private parts as the runtime's other packages reach them, in the JDK's "shared secrets" manner:
 * one small interface per API class, which that class implements in its static initializer and hands to
 * {@link dev.lanehost.lanes.access.Access}; a caller keeps the one it needs in a static final field, so the JIT binds
 * the call as it bound the member. Not API; the module does not export it. It names the API classes and the parts
 * their members take; it calls nothing.
 */
package dev.lanehost.lanes.access;
