/**
 * Internals of {@code ffm} that Tegula's other modules share and users must not call: the raw
 * read and write of one slot of a buffer ({@link dev.tegula.ffm.internal.RawSlots}). Exported only
 * {@code to} Tegula's own modules (as {@code java.base} exports {@code jdk.internal.*}); nothing
 * here is API and it may change in any release. Must not depend on anything above {@code ffm}.
 */
package dev.tegula.ffm.internal;
