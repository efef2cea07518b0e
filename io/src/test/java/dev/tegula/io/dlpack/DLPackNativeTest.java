package dev.tegula.io.dlpack;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_FLOAT;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import java.io.File;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Zero copy against a real native peer: src/test/c/dlpack_peer.c, compiled here with the machine's
 * C compiler, produces tensors Tegula imports and consumes tensors Tegula exports. Skipped (with the
 * reason) where no compiler is installed.
 */
class DLPackNativeTest {
    private static Arena library;
    private static SymbolLookup peer;

    @BeforeAll
    static void compilePeer() throws IOException, InterruptedException {
        String cc = findCompiler();
        Assumptions.assumeTrue(cc != null, "no C compiler (cc, gcc or clang) on PATH: the native DLPack peer cannot be built");
        Path dir = Files.createTempDirectory("dlpack-peer");
        Path lib = dir.resolve("libdlpack_peer.so");
        Process p = new ProcessBuilder(cc, "-shared", "-fPIC", "-O1", "-o", lib.toString(),
                Path.of("src/test/c/dlpack_peer.c").toAbsolutePath().toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS) && p.exitValue() == 0, "cc failed:\n" + log);
        library = Arena.ofShared();
        peer = SymbolLookup.libraryLookup(lib, library);
    }

    @AfterAll
    static void unload() {
        if (library != null) {
            library.close();
        }
    }

    private static String findCompiler() {
        for (String name : new String[] {"cc", "gcc", "clang"}) {
            for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
                if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                    return name;
                }
            }
        }
        return null;
    }

    private static MethodHandle fn(String name, MemoryLayout result, MemoryLayout... args) {
        FunctionDescriptor fd = result == null ? FunctionDescriptor.ofVoid(args) : FunctionDescriptor.of(result, args);
        return Linker.nativeLinker().downcallHandle(peer.find(name).orElseThrow(), fd);
    }

    private static int count(String fn) throws Throwable {
        return (int) fn(fn, JAVA_INT).invokeExact();
    }

    @Test
    void tegulaImportsAPeerTensorZeroCopyAndCallsItsDeleterOnceOnClose() throws Throwable {
        MethodHandle make = fn("peer_make_f32", ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT);
        MethodHandle data = fn("peer_data", ADDRESS, ADDRESS);
        MethodHandle get = fn("peer_get_f32", JAVA_FLOAT, ADDRESS, JAVA_LONG, JAVA_LONG);
        int before = count("peer_versioned_deletes");
        for (int columnMajor = 0; columnMajor < 2; columnMajor++) {
            MemorySegment t = (MemorySegment) make.invokeExact(3L, 4L, 1, columnMajor, columnMajor == 0 ? 1 : 0);
            MemorySegment peerData = (MemorySegment) data.invokeExact(t);
            try (Arena arena = Arena.ofConfined()) {
                Array a = DLPack.importTensor(t, arena);
                assertEquals(peerData.address(), a.segment().address(), "same memory, no copy");
                assertEquals(columnMajor == 1 ? Layout.columnMajor(2) : Layout.rowMajor(2), a.shape().layout());
                assertEquals(11f, a.getFloat(2, 3));
                assertEquals(6f, a.getFloat(1, 2));
                a.setFloat(1, 2, -42f);                                    // write through Tegula ...
                assertEquals(-42f, (float) get.invokeExact(t, 1L, 2L));     // ... read through the peer
                assertEquals(before + columnMajor, count("peer_versioned_deletes"), "not deleted while the arena is open");
            }
            assertEquals(before + columnMajor + 1, count("peer_versioned_deletes"), "deleted exactly once on close");
        }
    }

    @Test
    void legacyTensorsImportToo() throws Throwable {
        MemorySegment t = (MemorySegment) fn("peer_make_legacy_i32", ADDRESS, JAVA_LONG).invokeExact(5L);
        int before = count("peer_legacy_deletes");
        try (Arena arena = Arena.ofConfined()) {
            Array a = DLPack.importLegacy(t, arena);
            assertEquals("s32[5]{0}", a.shape().toString());
            assertEquals(14, a.getInt(4));
        }
        assertEquals(before + 1, count("peer_legacy_deletes"));
    }

    @Test
    void aMajorVersionMismatchCallsTheDeleterAndRefuses() throws Throwable {
        MethodHandle make = fn("peer_make_f32", ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT);
        MemorySegment t = (MemorySegment) make.invokeExact(2L, 2L, 2, 0, 0);
        int before = count("peer_versioned_deletes");
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DLPack.importTensor(t, arena));
            assertTrue(e.getMessage().contains("major version 2"), e.getMessage());
            assertEquals(before + 1, count("peer_versioned_deletes"));
        }
        assertEquals(before + 1, count("peer_versioned_deletes"), "not called a second time on close");
    }

    @Test
    void thePeerConsumesATegulaExportZeroCopyAndItsDeleterReleasesOnce() throws Throwable {
        MethodHandle data = fn("peer_data", ADDRESS, ADDRESS);
        MethodHandle get = fn("peer_get_f32", JAVA_FLOAT, ADDRESS, JAVA_LONG, JAVA_LONG);
        MethodHandle set = fn("peer_set_f32", null, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_FLOAT);
        MethodHandle release = fn("peer_release", null, ADDRESS);
        MethodHandle flags = fn("peer_flags", JAVA_LONG, ADDRESS);
        MethodHandle offset = fn("peer_byte_offset", JAVA_LONG, ADDRESS);
        AtomicInteger released = new AtomicInteger();
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 4, 6));
            a.copyFrom(java.util.stream.IntStream.range(0, 24).mapToDouble(i -> i).toArray());
            Array view = a.slice(0, 1, 4).permute(1, 0);                    // f32[6,3], strided, offset 6
            MemorySegment m = DLPack.export(view, arena, false, released::incrementAndGet);
            assertEquals(a.segment().address(), ((MemorySegment) data.invokeExact(m)).address(), "same data pointer");
            assertEquals(24L, (long) offset.invokeExact(m));
            assertEquals(0L, (long) flags.invokeExact(m));
            assertEquals(view.getFloat(5, 2), (float) get.invokeExact(m, 5L, 2L));   // read through the peer
            set.invokeExact(m, 2L, 1L, 99f);                                  // write through the peer ...
            assertEquals(99f, a.getFloat(2, 2));                               // ... read through Tegula
            release.invokeExact(m);
            assertEquals(1, released.get());
            release.invokeExact(m);                                            // a second call is ignored
            assertEquals(1, released.get(), "released exactly once");
        }
    }

    @Test
    void packedSubByteExportsInDLPacksBitOrder() throws Throwable {
        MethodHandle getS4 = fn("peer_get_s4", JAVA_INT, ADDRESS, JAVA_LONG);
        MethodHandle dtype = fn("peer_dtype", JAVA_INT, ADDRESS);
        MethodHandle flags = fn("peer_flags", JAVA_LONG, ADDRESS);
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.parse("s4[7]{0:E(4)}"));
            a.copyFrom(new long[] {-8, -1, 0, 1, 7, 3, -5});
            MemorySegment m = DLPack.export(a, arena);
            assertEquals(0 << 16 | 4 << 8 | 1, (int) dtype.invokeExact(m));
            assertEquals(0L, (long) flags.invokeExact(m), "packed: no IS_SUBBYTE_TYPE_PADDED");
            for (int i = 0; i < 7; i++) {
                assertEquals(a.getInt(i), (int) getS4.invokeExact(m, (long) i));
            }
            Array view = a.slice(0, 2, 7);
            MemorySegment v = DLPack.export(view, arena);
            assertEquals(1, (int) getS4.invokeExact(v, 1L));
            assertFalse(DLPack.liveExports() == 0);
        }
    }
}
