/**
 * Loading lanehost's shared libraries: one search order (explicit path, bundled copy, system path),
 * one ABI check, one error message that says what was tried and how to fix it. Bundled copies are
 * extracted only into a directory this user alone can write ({@code PrivateDirectory}) and loaded
 * only if their content hashes like the bundled copy. See
 * {@link dev.lanehost.nativeloader.NativeLibraryLoader}.
 */
package dev.lanehost.nativeloader;
