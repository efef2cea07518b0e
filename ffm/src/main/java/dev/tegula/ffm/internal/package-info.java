/**
 * Internals of {@code ffm} that Tegula's other modules share and users must not call: the raw
 * read and write of one slot of a buffer ({@link dev.tegula.ffm.internal.RawSlots}), the one binding
 * to the C library's memory and file calls ({@link dev.tegula.ffm.internal.Libc}), whether a segment
 * may be used from other threads ({@link dev.tegula.ffm.internal.ThreadAccess}), the relayout engine as a
 * service that module {@code vector} provides to {@code Array}'s bulk methods
 * ({@link dev.tegula.ffm.internal.BulkCopier}) and size arithmetic that
 * {@link java.lang.Math} lacks ({@link dev.tegula.ffm.internal.LongMath}). Exported only {@code to}
 * Tegula's own modules (as {@code java.base} exports {@code jdk.internal.*}); nothing here is API
 * and it may change in any release. Must not depend on anything above {@code ffm}.
 */
package dev.tegula.ffm.internal;
