package dev.tegula.ffm.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class StreamingCopyTest {

    /** The routine assembled by the GNU assembler from streaming-copy.s (see streaming-copy.sh). */
    private static byte[] golden() {
        try (InputStream in = StreamingCopyTest.class.getResourceAsStream("streaming-copy.hex")) {
            assertNotNull(in, "streaming-copy.hex");
            String[] hex = new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().split("\\s+");
            byte[] b = new byte[hex.length];
            for (int i = 0; i < hex.length; i++) {
                b[i] = (byte) Integer.parseInt(hex[i], 16);
            }
            return b;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void theEncoderWritesTheBytesTheGnuAssemblerGivesForTheRoutine() {
        byte[] expected = golden();
        byte[] code = StreamingCopy.code();
        assertEquals(expected.length, code.length, "routine length");
        assertArrayEquals(expected, code);
    }

    @Test
    void wherePlatformAllowsTheLinkedRoutineCopiesRowsAndNothingElse() throws Throwable {
        NativeCode.Linked linked = StreamingCopy.link();
        boolean linuxX64 = System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).startsWith("linux")
                && (System.getProperty("os.arch").equals("amd64") || System.getProperty("os.arch").equals("x86_64"));
        if (!linuxX64) {
            assertTrue(linked.handle() == null && linked.refusal() != null, "refused off Linux x86-64");
            return;
        }
        if (linked.handle() == null) {
            assertNotNull(linked.refusal());
            return;   // executable memory refused here: the refusal is the answer
        }
        try (Arena arena = Arena.ofConfined()) {
            long rows = 5;
            long rowBytes = 203;   // a head, whole lines and a tail at every offset below
            long srcStride = 211;
            long dstStride = 256;
            MemorySegment src = arena.allocate(rows * srcStride);
            MemorySegment dst = arena.allocate(rows * dstStride + 64, 64);
            for (long i = 0; i < src.byteSize(); i++) {
                src.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 31 + 7));
            }
            dst.fill((byte) 0x5A);
            MemorySegment to = dst.asSlice(3);
            linked.handle().invokeExact(src, srcStride, to, dstStride, rows, rowBytes);
            for (long i = 0; i < dst.byteSize(); i++) {
                long at = i - 3;
                long r = at < 0 ? -1 : at / dstStride;
                long c = at < 0 ? -1 : at % dstStride;
                byte want = r >= 0 && r < rows && c < rowBytes ? src.get(ValueLayout.JAVA_BYTE, r * srcStride + c) : 0x5A;
                assertEquals(want, dst.get(ValueLayout.JAVA_BYTE, i), "byte " + i);
            }
        }
    }
}
