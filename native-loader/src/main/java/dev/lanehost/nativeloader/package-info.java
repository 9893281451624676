/**
 * Loading lanehost's shared libraries: one search order (explicit path, bundled copy, system path),
 * one ABI check, one error message that says what was tried and how to fix it. See
 * {@link dev.lanehost.nativeloader.NativeLibraryLoader}.
 */
package dev.lanehost.nativeloader;
