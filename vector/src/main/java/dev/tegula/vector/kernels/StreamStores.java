package dev.tegula.vector.kernels;

import dev.tegula.ffm.internal.NativeCode;
import dev.tegula.ffm.internal.StreamingCopy;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Locale;

/**
 * Copies of a block of rows that write the destination with non-temporal ("streaming") stores: whole
 * 64-byte destination lines are written without being read first, which plain stores do (the read for
 * ownership), and without filling the caches with them. Meant for a small block that sits in the L1 or
 * L2 cache (a transpose's staging buffer) going to a large destination that does not.
 *
 * <p>On Linux on x86-64 the copy is a small routine generated here at run time
 * ({@code dev.tegula.ffm.internal.StreamingCopy}): unaligned 128-bit loads; plain stores for the destination bytes before the
 * first and after the last whole 64-byte line of each row; non-temporal stores ({@code movntdq}, SSE2,
 * which every x86-64 has: wider registers fill a line no faster) for the whole lines; one
 * {@code sfence} at the end, so the stores are ordered before anything the caller does next (it waits
 * for them to leave the core, so one call should cover a whole block, not a row). It reads
 * {@code rows} rows of {@code rowBytes} from the source, writes the same bytes to the destination,
 * and does nothing else: no calls, no other memory. Its pages are mapped writable, filled, then
 * switched to read and execute before use ({@code dev.tegula.ffm.internal.NativeCode}), never both.
 *
 * <p>Elsewhere (another CPU or system, executable memory refused, the C library not bound, or the
 * system property {@code tegula.relayout.streamStores=false}) there is no routine: {@link #copy2d}
 * copies row by row with {@link MemorySegment#copy}, and the reason is logged once
 * ({@link System.Logger} {@code dev.tegula.vector}, level INFO where the routine was expected and
 * refused, DEBUG where it was switched off or is not made for this platform). Thread-safe and stateless
 * apart from the routine, made once.
 */
public final class StreamStores {
    private StreamStores() {
    }

    /**
     * Most bytes one call of the routine writes: a longer block is copied in several calls, as a call
     * made with {@code Linker.Option.critical} holds its thread (and a garbage collection waiting for
     * it) until it returns.
     */
    static final long CALL_BYTES = 1L << 20;

    /** The system property that turns the routine off ({@code false}). */
    static final String PROPERTY = "tegula.relayout.streamStores";

    private static final MethodHandle ROUTINE;
    private static final String REFUSAL;

    static {
        String refusal = refusal(System.getProperty(PROPERTY), System.getProperty("os.name", ""),
                System.getProperty("os.arch", ""));
        MethodHandle routine = null;
        System.Logger.Level level = System.Logger.Level.DEBUG;
        if (refusal == null) {
            NativeCode.Linked linked = StreamingCopy.link();
            routine = linked.handle();
            refusal = linked.refusal();
            level = System.Logger.Level.INFO;
        }
        ROUTINE = routine;
        REFUSAL = refusal;
        if (refusal != null) {
            System.getLogger("dev.tegula.vector").log(level, "streaming stores off, relayouts copy with plain stores: "
                    + refusal);
        }
    }

    /**
     * {@return why no routine is made for this switch value ({@link #PROPERTY}), system and CPU, or
     * null if one is to be made}
     */
    static String refusal(String property, String osName, String arch) {
        if (property != null && property.strip().equalsIgnoreCase("false")) {
            return "-D" + PROPERTY + "=false";
        }
        if (!osName.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return "the routine is made for Linux only, not " + osName;
        }
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            return "the routine is made for x86-64 only, not " + arch;
        }
        return null;
    }

    /** {@return whether {@link #copy2d} streams (the routine is there)} */
    public static boolean available() {
        return ROUTINE != null;
    }

    /** {@return why {@link #copy2d} does not stream, or null if it does} */
    public static String unavailableReason() {
        return REFUSAL;
    }

    /**
     * Copies {@code rows} rows of {@code rowBytes} bytes: row {@code r} from {@code srcOffset + r · srcStride}
     * of {@code src} to {@code dstOffset + r · dstStride} of {@code dst}, with streaming stores where
     * {@link #available()}. Source and destination must not overlap (then the destination holds what
     * some order of the row copies would have left; memory outside both blocks is never touched).
     *
     * @throws IllegalArgumentException  if a count or stride is negative, or {@code dst} is read-only
     * @throws IndexOutOfBoundsException if a block does not lie inside its segment
     * @throws ArithmeticException       if a block's extent overflows a long
     */
    public static void copy2d(MemorySegment src, long srcOffset, long srcStride, MemorySegment dst, long dstOffset,
                       long dstStride, long rows, long rowBytes) {
        if (rows < 0 || rowBytes < 0 || srcStride < 0 || dstStride < 0) {
            throw new IllegalArgumentException("rows " + rows + ", rowBytes " + rowBytes + ", srcStride " + srcStride
                    + ", dstStride " + dstStride + ": must not be negative");
        }
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("dst: read-only segment");
        }
        if (rows == 0 || rowBytes == 0) {
            return;
        }
        MemorySegment from = src.asSlice(srcOffset, Math.addExact(Math.multiplyExact(rows - 1, srcStride), rowBytes));
        MemorySegment to = dst.asSlice(dstOffset, Math.addExact(Math.multiplyExact(rows - 1, dstStride), rowBytes));
        if (ROUTINE == null) {
            for (long r = 0; r < rows; r++) {
                MemorySegment.copy(from, r * srcStride, to, r * dstStride, rowBytes);
            }
            return;
        }
        // calls of at most CALL_BYTES: a critical call keeps the thread from a safepoint until it returns
        if (rowBytes > CALL_BYTES) {
            for (long r = 0; r < rows; r++) {
                for (long at = 0; at < rowBytes; at += CALL_BYTES) {
                    stream(from, r * srcStride + at, 0, to, r * dstStride + at, 0, 1, Math.min(CALL_BYTES, rowBytes - at));
                }
            }
            return;
        }
        long per = CALL_BYTES / rowBytes;
        for (long r = 0; r < rows; r += per) {
            stream(from, r * srcStride, srcStride, to, r * dstStride, dstStride, Math.min(per, rows - r), rowBytes);
        }
    }

    /** One call of the routine on rows already checked to lie inside {@code from} and {@code to}. */
    private static void stream(MemorySegment from, long so, long srcStride, MemorySegment to, long dO, long dstStride,
                               long rows, long rowBytes) {
        MemorySegment f = so == 0 ? from : from.asSlice(so);
        MemorySegment t = dO == 0 ? to : to.asSlice(dO);
        try {
            ROUTINE.invokeExact(f, srcStride, t, dstStride, rows, rowBytes);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
