package dev.tegula.ffm.internal;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The one machine-code routine Tegula writes, its bytes and their mapping in one place: a copy of a
 * block of rows whose destination is written with non-temporal ("streaming") stores, for x86-64 and
 * the System V calling convention:
 * {@code void copy2d(void *src, long srcStride, void *dst, long dstStride, long rows, long rowBytes)}.
 *
 * <p>For each of {@code rows} rows it copies {@code rowBytes} bytes from {@code src + r·srcStride} to
 * {@code dst + r·dstStride}: unaligned 128-bit loads; plain stores for the destination bytes before
 * the first and after the last whole 64-byte line of the row; non-temporal stores ({@code movntdq},
 * SSE2, which every x86-64 has) for the whole lines; one {@code sfence} at the end, so the stores are
 * ordered before anything the caller does next. It makes no calls and touches no other memory. Its
 * only scratch registers beyond the argument registers are {@code rax}, {@code r10}, {@code r11},
 * {@code xmm0}–{@code xmm3} and {@code rbx} (saved and restored).
 *
 * <p>{@link #link()} maps it through {@link NativeCode}, which maps only code of this package.
 * Thread-safe; not API (see the package).
 */
public final class StreamingCopy {
    private StreamingCopy() {
    }

    /** The routine's C signature. */
    static final FunctionDescriptor SIGNATURE = FunctionDescriptor.ofVoid(ValueLayout.ADDRESS, ValueLayout.JAVA_LONG,
            ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG, ValueLayout.JAVA_LONG);

    /**
     * {@return the routine linked as a critical downcall (it holds its thread until it returns, so a
     * caller keeps each call short), or why it is not}: refused off Linux on x86-64, and wherever
     * {@link NativeCode} cannot map it
     */
    public static NativeCode.Linked link() {
        String os = System.getProperty("os.name", "");
        String arch = System.getProperty("os.arch", "");
        if (!os.toLowerCase(Locale.ROOT).startsWith("linux")) {
            return new NativeCode.Linked(null, "the routine is made for Linux only, not " + os);
        }
        if (!arch.equals("amd64") && !arch.equals("x86_64")) {
            return new NativeCode.Linked(null, "the routine is made for x86-64 only, not " + arch);
        }
        return NativeCode.link(code(), SIGNATURE, Linker.Option.critical(true));
    }

    // ---- the routine: x86-64, System V calling convention ----
    // void copy2d(rdi src, rsi srcStride, rdx dst, rcx dstStride, r8 rows, r9 rowBytes)

    private static final int RAX = 0, RCX = 1, RDX = 2, RBX = 3, RSI = 6, RDI = 7, R8 = 8, R9 = 9, R10 = 10, R11 = 11;
    private static final int JB = 0x82, JAE = 0x83, JE = 0x84, JNE = 0x85;

    /** {@return the routine's machine code} */
    static byte[] code() {
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
