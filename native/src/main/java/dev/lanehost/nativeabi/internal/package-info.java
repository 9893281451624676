/**
 * The host ABI's machinery that users never touch: the handle tables behind the opaque 64-bit handles.
 * Public only so the project's concurrency tests can reach it; not an API.
 */
package dev.lanehost.nativeabi.internal;
