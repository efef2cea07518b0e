package dev.tegula.vector.kernels;

import dev.tegula.ffm.internal.NativeCode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Copies of a block of rows that write the destination with non-temporal ("streaming") stores: whole
 * 64-byte destination lines are written without being read first, which plain stores do (the read for
 * ownership), and without filling the caches with them. Meant for a small block that sits in the L1 or
 * L2 cache (a transpose's staging buffer) going to a large destination that does not.
 *
 * <p>On Linux on x86-64 the copy is a small routine generated here at run time
 * ({@link #routine()}): unaligned 128-bit loads; plain stores for the destination bytes before the
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
            NativeCode.Linked linked = NativeCode.link(routine(), FunctionDescriptor.ofVoid(ValueLayout.ADDRESS,
                    ValueLayout.JAVA_LONG, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG,
                    ValueLayout.JAVA_LONG), Linker.Option.critical(true));
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

    /** Whether the CPU is an Intel one (/proc/cpuinfo's vendor_id), read once. */
    private static final boolean INTEL = vendor().equals("GenuineIntel");

    private static String vendor() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("vendor_id")) {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // no /proc: an unknown vendor
        }
        return "";
    }

    /**
     * {@return whether the estimate should stream a large transpose's blocks out}: the routine is
     * there and the CPU is one where streaming measured faster than plain stores (Intel with 512-bit
     * vectors, whose plain stores read every destination line first and whose JDK copy streams only
     * blocks of megabytes). Elsewhere the measuring planner still times both.
     */
    public static boolean helpsHere() {
        return ROUTINE != null && INTEL && Tuning.TILE == 16;
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
    static void copy2d(MemorySegment src, long srcOffset, long srcStride, MemorySegment dst, long dstOffset,
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

    // ---- the routine: x86-64, System V calling convention ----
    // void copy2d(rdi src, rsi srcStride, rdx dst, rcx dstStride, r8 rows, r9 rowBytes)

    private static final int RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSI = 6, RDI = 7, R8 = 8, R9 = 9, R10 = 10, R11 = 11;
    private static final int JB = 0x82, JAE = 0x83, JE = 0x84, JNE = 0x85;

    /** {@return the routine's machine code} */
    static byte[] routine() {
        Asm a = new Asm();
        int row = a.label(), head1 = a.label(), head16 = a.label(), body = a.label(), loop64 = a.label();
        int tail16 = a.label(), tail1 = a.label(), next = a.label(), done = a.label();
        a.op(0x53);                                   // push rbx (the byte copies' scratch register)
        a.rr(0x85, R8, R8);                           // test r8, r8
        a.jcc(JE, done);                              // no rows
        a.bind(row);
        a.rr(0x89, RDI, R10);                         // mov r10, rdi: source of this row
        a.rr(0x89, RDX, R11);                         // mov r11, rdx: destination of this row
        a.rr(0x89, R9, RAX);                          // mov rax, r9: bytes left in this row
        a.bind(head1);                                // single bytes, plain, until the destination is 16-aligned
        a.testImm32(R11, 15);
        a.jcc(JE, head16);
        a.rr(0x85, RAX, RAX);
        a.jcc(JE, next);
        a.copyByte();
        a.jmp(head1);
        a.bind(head16);                               // 16 bytes, plain, until the destination is 64-aligned
        a.testImm32(R11, 63);
        a.jcc(JE, body);
        a.arithImm8(7, RAX, 16);                      // cmp rax, 16
        a.jcc(JB, tail16);
        a.copy16Plain();
        a.jmp(head16);
        a.bind(body);                                 // whole 64-byte lines, non-temporal
        a.arithImm8(7, RAX, 64);                      // cmp rax, 64
        a.jcc(JB, tail16);
        a.bind(loop64);
        for (int x = 0; x < 4; x++) {
            a.sse(0xF3, 0x6F, x, R10, 16 * x);        // movdqu xmmX, [r10 + 16X]
        }
        for (int x = 0; x < 4; x++) {
            a.sse(0x66, 0xE7, x, R11, 16 * x);        // movntdq [r11 + 16X], xmmX
        }
        a.advance(64);
        a.arithImm8(7, RAX, 64);                      // cmp rax, 64
        a.jcc(JAE, loop64);
        a.bind(tail16);                               // the rest: 16 bytes, plain
        a.arithImm8(7, RAX, 16);                      // cmp rax, 16
        a.jcc(JB, tail1);
        a.copy16Plain();
        a.jmp(tail16);
        a.bind(tail1);                                // then single bytes, plain
        a.rr(0x85, RAX, RAX);
        a.jcc(JE, next);
        a.copyByte();
        a.jmp(tail1);
        a.bind(next);
        a.rr(0x01, RSI, RDI);                         // add rdi, rsi
        a.rr(0x01, RCX, RDX);                         // add rdx, rcx
        a.rr(0xFF, 1, R8);                            // dec r8
        a.jcc(JNE, row);
        a.bind(done);
        a.op(0x0F, 0xAE, 0xF8);                       // sfence
        a.op(0x5B);                                   // pop rbx
        a.op(0xC3);                                   // ret
        return a.code();
    }

    /** A few x86-64 instruction encodings, labels and 32-bit relative jumps. */
    private static final class Asm {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();
        private final List<Integer> labels = new ArrayList<>();
        private final List<int[]> jumps = new ArrayList<>();   // {position of rel32, label}

        int label() {
            labels.add(-1);
            return labels.size() - 1;
        }

        void bind(int label) {
            labels.set(label, out.size());
        }

        void op(int... bytes) {
            for (int x : bytes) {
                out.write(x);
            }
        }

        /** {@code opcode r/m64, r64} register to register (or {@code FF /reg} with {@code reg} the extension). */
        void rr(int opcode, int reg, int rm) {
            op(0x48 | (reg >> 3) << 2 | rm >> 3, opcode, 0xC0 | (reg & 7) << 3 | rm & 7);
        }

        /** {@code test r32, imm32}. */
        void testImm32(int rm, int imm) {
            if (rm >= 8) {
                op(0x41);
            }
            op(0xF7, 0xC0 | rm & 7, imm & 0xFF, imm >> 8 & 0xFF, imm >> 16 & 0xFF, imm >>> 24);
        }

        /** {@code 83 /ext r/m64, imm8}: add 0, sub 5, cmp 7. */
        void arithImm8(int ext, int rm, int imm) {
            op(0x48 | rm >> 3, 0x83, 0xC0 | ext << 3 | rm & 7, imm);
        }

        /** {@code prefix 0F opcode} of an xmm register and {@code [base + disp]} (base r8..r15 but not r12, r13). */
        void sse(int prefix, int opcode, int xmm, int base, int disp) {
            op(prefix, 0x40 | (xmm >> 3) << 2 | base >> 3, 0x0F, opcode);
            op((disp == 0 ? 0x00 : 0x40) | (xmm & 7) << 3 | base & 7);
            if (disp != 0) {
                op(disp);
            }
        }

        /** One byte from [r10] to [r11] through bl, both pointers and rax (the count) stepped. */
        void copyByte() {
            op(0x41, 0x0F, 0xB6, 0x1A);               // movzx ebx, byte [r10]
            op(0x41, 0x88, 0x1B);                     // mov [r11], bl
            advance(1);
        }

        /** 16 bytes from [r10] to [r11] with a plain store, both pointers and rax stepped. */
        void copy16Plain() {
            sse(0xF3, 0x6F, 0, R10, 0);               // movdqu xmm0, [r10]
            sse(0xF3, 0x7F, 0, R11, 0);               // movdqu [r11], xmm0
            advance(16);
        }

        /** r10 and r11 forward and rax back by {@code n} (1: inc/dec). */
        void advance(int n) {
            if (n == 1) {
                rr(0xFF, 0, R10);                     // inc r10
                rr(0xFF, 0, R11);                     // inc r11
                rr(0xFF, 1, RAX);                     // dec rax
            } else {
                arithImm8(0, R10, n);
                arithImm8(0, R11, n);
                arithImm8(5, RAX, n);
            }
        }

        void jmp(int label) {
            op(0xE9);
            rel32(label);
        }

        void jcc(int condition, int label) {
            op(0x0F, condition);
            rel32(label);
        }

        private void rel32(int label) {
            jumps.add(new int[] {out.size(), label});
            op(0, 0, 0, 0);
        }

        byte[] code() {
            byte[] c = out.toByteArray();
            for (int[] j : jumps) {
                int rel = labels.get(j[1]) - (j[0] + 4);
                for (int k = 0; k < 4; k++) {
                    c[j[0] + k] = (byte) (rel >> 8 * k);
                }
            }
            return c;
        }
    }
}
