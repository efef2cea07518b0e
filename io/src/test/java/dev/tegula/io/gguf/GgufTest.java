package dev.tegula.io.gguf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.IoFixtures;
import dev.tegula.io.TensorFormatException;
import dev.tegula.io.npy.Npy;
import dev.tegula.vector.quant.Quantize;
import dev.tegula.vector.Relayout;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * GGUF files written by llama.cpp's gguf-py ({@code src/test/python/make_gguf_fixtures.py}): every
 * metadata value type, plain tensors as views with {@code ne} reversed, and every block type
 * dequantized bit for bit equal to {@code gguf.quants} (the committed {@code ref_TYPE.npy}), in
 * row-major f32 and through the fused relayout into other types and tiled layouts.
 */
class GgufTest {
    static final List<String> BLOCK_TYPES = List.of("Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q8_0", "Q2_K", "Q3_K", "Q4_K",
            "Q5_K", "Q6_K");

    @ParameterizedTest
    @ValueSource(strings = {"all_types_v2.gguf", "all_types_v3.gguf"})
    void metadataOfEveryType(String file) throws IOException {
        GgufHeader h = Gguf.readHeader(IoFixtures.gguf(file));
        assertEquals(file.contains("v2") ? 2 : 3, h.version());
        var m = h.metadata();
        assertEquals("tegula-test", m.get("general.architecture").asString());
        assertEquals(GgufValue.of(GgufValueType.UINT8, 200), m.get("t.u8"));
        assertEquals(GgufValue.of(GgufValueType.INT8, -100), m.get("t.i8"));
        assertEquals(GgufValue.of(GgufValueType.UINT16, 60000), m.get("t.u16"));
        assertEquals(GgufValue.of(GgufValueType.INT16, -30000), m.get("t.i16"));
        assertEquals(GgufValue.uint32(4000000000L), m.get("t.u32"));
        assertEquals(GgufValue.int32(-2000000000), m.get("t.i32"));
        assertEquals(GgufValue.of(GgufValueType.UINT64, Long.parseUnsignedLong("18000000000000000000")), m.get("t.u64"));
        assertEquals("18000000000000000000", m.get("t.u64").summary(4));
        assertEquals(GgufValue.of(GgufValueType.INT64, -9000000000000000000L), m.get("t.i64"));
        assertEquals(GgufValue.float32(0.1f), m.get("t.f32"));
        assertEquals(GgufValue.float64(0.1), m.get("t.f64"));
        assertEquals(GgufValue.bool(true), m.get("t.bool"));
        assertEquals(GgufValue.string("Grüße, 世界"), m.get("t.string"));
        assertEquals(GgufValue.array(GgufValueType.UINT8, new byte[] {1, 2, (byte) 255}), m.get("t.arr.u8"));
        assertEquals("uint8[3] [1, 2, 255]", m.get("t.arr.u8").summary(8));
        assertEquals(GgufValue.array(GgufValueType.INT16, new short[] {-1, 2, -3}), m.get("t.arr.i16"));
        assertEquals(GgufValue.array(GgufValueType.UINT32, new int[] {1, (int) 4000000000L}), m.get("t.arr.u32"));
        assertEquals(GgufValue.array(GgufValueType.INT64, new long[] {-5, 6}), m.get("t.arr.i64"));
        assertEquals(GgufValue.array(GgufValueType.FLOAT32, new float[] {0.5f, -1.25f}), m.get("t.arr.f32"));
        assertEquals(GgufValue.array(GgufValueType.FLOAT64, new double[] {0.1}), m.get("t.arr.f64"));
        assertEquals(GgufValue.array(GgufValueType.BOOL, new boolean[] {true, false, true}), m.get("t.arr.bool"));
        assertEquals(GgufValue.array(GgufValueType.STRING, new String[] {"a", "", "ü"}), m.get("t.arr.string"));
        GgufValue nested = m.get("t.arr.arr");
        assertEquals(GgufValueType.ARRAY, nested.elementType());
        GgufValue[] items = (GgufValue[]) nested.value();
        assertEquals(2, items.length);
        assertEquals(GgufValue.array(GgufValueType.INT32, new int[] {1, 2}), items[0]);
        assertEquals(GgufValue.array(GgufValueType.INT32, new int[] {3}), items[1]);
        assertEquals(100, m.get("t.arr.long").length());
        assertTrue(m.get("t.arr.long").summary(5).endsWith("0, 1, 2, 3, 4, … 95 more]"), m.get("t.arr.long").summary(5));
        assertEquals(32, h.alignment());
        assertEquals(0, h.dataOffset() % 32);
    }

    @ParameterizedTest
    @ValueSource(strings = {"all_types_v2.gguf", "all_types_v3.gguf"})
    void plainTensorsAreViewsWithNeReversed(String file) throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GgufFile f = Gguf.open(IoFixtures.gguf(file), arena);
            assertArrayEquals(new long[] {5, 3}, f.header().tensor("plain.f32").ne());
            String[] names = {"plain.f32", "plain.f16", "plain.bf16", "plain.f64", "plain.i8", "plain.i16", "plain.i32", "plain.i64"};
            ElementType[] types = {ElementType.F32, ElementType.F16, ElementType.BF16, ElementType.F64, ElementType.S8,
                ElementType.S16, ElementType.S32, ElementType.S64};
            for (int k = 0; k < names.length; k++) {
                Array a = f.tensor(names[k]).array();
                assertEquals(ArrayShape.of(types[k], 3, 5), a.shape(), names[k]);
                assertTrue(a.isReadOnly(), names[k]);
                for (int i = 0; i < 3; i++) {
                    for (int j = 0; j < 5; j++) {
                        double base = (i * 5 + j) * 1.5 - 7;
                        switch (k) {
                            case 0, 1, 2, 3 -> assertEquals(base, a.getDouble(i, j), names[k]);
                            case 4 -> assertEquals((long) base, a.getLong(i, j));
                            case 5 -> assertEquals((long) (base * 1000), a.getLong(i, j));
                            case 6 -> assertEquals((long) (base * 100000), a.getLong(i, j));
                            default -> assertEquals((long) (base * 1e12), a.getLong(i, j));
                        }
                    }
                }
            }
            Array cube = f.tensor("plain.f32_3d").array();
            assertEquals(ArrayShape.of(ElementType.F32, 2, 3, 4), cube.shape());
            assertEquals(1 * 12 + 2 * 4 + 3, cube.getFloat(1, 2, 3));
            assertArrayEquals(new long[] {4, 3, 2}, f.header().tensor("plain.f32_3d").ne());
        }
    }

    @Test
    void everyBlockTypeDequantizesBitForBitAsGgufQuants() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            for (String file : List.of("all_types_v2.gguf", "all_types_v3.gguf")) {
                for (String type : BLOCK_TYPES) {
                    Array expected = IoFixtures.ggufReference(type, arena);
                    Array got = Gguf.read(IoFixtures.gguf(file), "q." + type, arena);
                    assertEquals(expected.shape(), got.shape(), type);
                    assertEquals(-1, expected.segment().mismatch(got.segment()), type + " in " + file);
                    assertEquals(GgufType.valueOf(type), Gguf.readHeader(IoFixtures.gguf(file)).tensor("q." + type).type());
                }
            }
        }
    }

    @Test
    void fusedIntoOtherTypesAndLayoutsOnOneAndTwoThreads() throws IOException {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (Arena arena = Arena.ofShared()) {
            for (String type : BLOCK_TYPES) {
                Array ref = IoFixtures.ggufReference(type, arena);
                long[] d = ref.shape().dimensions();
                for (String t : List.of("bf16[%d,%d]{1,0:T(8,128)(2,1)}", "bf16[%d,%d]{0,1:T(8,128)(2,1)}",
                        "f32[%d,%d]{0,1}", "f16[%d,%d]{1,0}")) {
                    ArrayShape target = ArrayShape.parse(String.format(t, d[0], d[1]));
                    Array expected = Relayout.to(ref, target, arena);
                    Array one = Gguf.readAs(IoFixtures.gguf("all_types_v3.gguf"), "q." + type, target, arena);
                    Array two = Gguf.readAs(IoFixtures.gguf("all_types_v3.gguf"), "q." + type, target, arena, pool, 2);
                    assertEquals(-1, expected.segment().mismatch(one.segment()), type + " -> " + target);
                    assertEquals(-1, expected.segment().mismatch(two.segment()), type + " -> " + target + " (2 threads)");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void q8_0AndQ4_0QuantizeByteForByteAsGgufQuants() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Array input = Npy.read(IoFixtures.gguf("quant_input.npy"), arena);
            GgufFile f = Gguf.open(IoFixtures.gguf("all_types_v3.gguf"), arena);
            for (GgufType q : List.of(GgufType.Q8_0, GgufType.Q4_0)) {
                MemorySegment expected = f.tensor("q." + q).data();
                MemorySegment mine = arena.allocate(expected.byteSize());
                Quantize.fromFloats(q.quantBlock(), input.segment(), 0, mine, 0, input.shape().elementCount() / 32);
                assertEquals(-1, expected.mismatch(mine), q.toString());
            }
        }
    }

    @Test
    void otherBlockTypesAreListedAndRefusedByName() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            GgufFile f = Gguf.open(IoFixtures.gguf("all_types_v3.gguf"), arena);
            GgufTensor t = f.tensor("q.IQ4_NL");
            assertEquals(GgufType.IQ4_NL, t.type());
            assertArrayEquals(new long[] {2, 64}, t.dimensions());
            assertEquals(2 * 2 * 18, t.data().byteSize());
            UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                    () -> t.read(ArrayShape.of(ElementType.F32, 2, 64), arena));
            assertTrue(e.getMessage().contains("IQ4_NL"), e.getMessage());
            assertThrows(UnsupportedOperationException.class, () -> f.tensor("q.Q4_K").array());
            TensorFormatException missing = assertThrows(TensorFormatException.class, () -> f.tensor("nope"));
            assertTrue(missing.getMessage().contains("'nope'"), missing.getMessage());
        }
    }

    @Test
    void readAsRefusesOtherDimensions() {
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Gguf.readAs(
                    IoFixtures.gguf("all_types_v3.gguf"), "q.Q4_K", ArrayShape.of(ElementType.F32, 512, 2), arena));
            assertTrue(e.getMessage().contains("[2, 512]"), e.getMessage());
        }
    }
}
