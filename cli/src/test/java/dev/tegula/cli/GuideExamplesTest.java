package dev.tegula.cli;

// tag::imports[]
import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.vector.Relayout;
import java.lang.foreign.Arena;
// end::imports[]
import dev.tegula.core.Shape;
import dev.tegula.core.ElementType;
import dev.tegula.io.ConvertOptions;
import dev.tegula.io.ConvertReport;
import dev.tegula.io.ConvertRules;
import dev.tegula.io.TensorFiles;
import dev.tegula.core.ShapeParseException;
import dev.tegula.core.Tile;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.PlanMeasurement;
import dev.tegula.vector.PlanOrigin;
import dev.tegula.vector.Planning;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.Wisdom;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import dev.tegula.ffm.Runs;
import dev.tegula.ffm.MapMode;
import dev.tegula.ffm.MappedArray;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorOperators;
import jdk.incubator.vector.VectorSpecies;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every code example of README.md and docs/guide.md, between {@code tag::NAME[]} and
 * {@code end::NAME[]} comments. The documents quote these regions verbatim (DocSnippetsTest
 * checks), and the assertions after each region pin the values the comments promise.
 */
class GuideExamplesTest {

    @Test
    void readme() {
        // tag::readme[]
        try (Arena arena = Arena.ofConfined()) {
            ArrayShape shape = ArrayShape.parse("f32[3,5]{1,0:T(2,2)}");
            Array a = Array.allocate(arena, shape);        // 96 bytes: 15 floats, 9 padding slots
            a.setFloat(2, 3, 1.5f);
            long slot = shape.linearIndex(2, 3);           // 17: where (2,3) sits in the tiled buffer
            Array b = Relayout.to(a, Layout.rowMajor(2), arena);   // f32[3,5]{1,0}: 60 bytes
            float x = b.getFloat(2, 3);                    // 1.5
            // end::readme[]
            assertEquals(17, slot);
            assertEquals(1.5f, x);
            assertEquals(96, a.segment().byteSize());
            assertEquals(60, b.segment().byteSize());
            // tag::readme[]
        }
        // end::readme[]
    }

    @Test
    void devices(@org.junit.jupiter.api.io.TempDir Path dir) throws IOException {
        Path file = dir.resolve("w.safetensors");
        try (Arena setup = Arena.ofConfined()) {
            Array v = Array.allocate(setup, ArrayShape.parse("bf16[16,256]"));
            for (long i = 0; i < 16; i++) {
                for (long j = 0; j < 256; j++) {
                    v.setFloat(i, j, i - j / 4f);
                }
            }
            dev.tegula.io.safetensors.SafeTensors.write(java.util.Map.of("w", v), file);
        }
        // tag::devices[]
        float x;
        try (Arena arena = Arena.ofConfined()) {
            Array w = TensorFiles.readAs(file, "w", Layout.parse("{1,0:T(8,128)(2,1)S(1)}"), arena); // into a device buffer
            Array t = Relayout.to(w, Layout.parse("{0,1:S(1)}"), arena);     // device to device: a generated kernel
            try (MappedArray m = t.map(MapMode.READ)) { x = m.array().getFloat(3, 8); }              // no copy on PoCL
        }                                                                     // the buffers are released here, once
        // end::devices[]
        assertEquals(1f, x);
    }

    @Test
    void shapes() {
        // tag::shapes[]
        ArrayShape s = ArrayShape.parse("f32[3,5]{1,0:T(2,2)}");
        s.elementCount();          // 15
        s.byteSize();              // 60: XLA's ByteSizeOf, no padding
        s.bufferSize();            // 96: six 2x2 tiles of f32, padding included
        s.linearIndex(2, 3);       // 17: the slot of element (2,3)
        s.multiIndex(17);          // [2, 3]
        s.isElementSlot(9);        // false: slot 9 is padding
        // end::shapes[]
        assertEquals(15, s.elementCount());
        assertEquals(60, s.byteSize());
        assertEquals(96, s.bufferSize());
        assertEquals(17, s.linearIndex(2, 3));
        assertArrayEquals(new long[] {2, 3}, s.multiIndex(17));
        assertEquals(false, s.isElementSlot(9));
    }

    @Test
    void building() {
        // tag::building[]
        ArrayShape rowMajor = ArrayShape.of(ElementType.BF16, 1024, 1024);    // bf16[1024,1024]{1,0}
        ArrayShape tpu = rowMajor.withLayout(Layout.rowMajor(2).withTiles(Tile.of(8, 128), Tile.of(2, 1)));
        tpu.toString();            // "bf16[1024,1024]{1,0:T(8,128)(2,1)}"
        tpu.linearIndex(1, 0);     // 1: rows 0 and 1 of a column are neighbours
        tpu.linearIndex(0, 1);     // 2
        tpu.linearIndex(8, 0);     // 8192: the next tile row starts after 8 tiles of 1024
        // end::building[]
        assertEquals("bf16[1024,1024]{1,0}", rowMajor.toString());
        assertEquals("bf16[1024,1024]{1,0:T(8,128)(2,1)}", tpu.toString());
        assertEquals(1, tpu.linearIndex(1, 0));
        assertEquals(2, tpu.linearIndex(0, 1));
        assertEquals(8192, tpu.linearIndex(8, 0));
    }

    @Test
    void arrays() {
        // tag::arrays[]
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.parse("f32[2,3]{0,1}"));  // zeros
            a.copyFrom(new float[] {0, 1, 2, 3, 4, 5});    // logical row-major order, whatever the layout
            a.setFloat(1, 2, 50f);
            float x = a.getFloat(1, 2);                    // 50.0
            float m = a.segment().get(ValueLayout.JAVA_FLOAT, 4);   // 3.0: column-major, (1,0) is the second float
            float[] values = a.toFloatArray();             // {0, 1, 2, 3, 4, 50}
            System.out.println(a);                         // f32[2,3]{0,1}, then [[0.0, 1.0, 2.0], [3.0, 4.0, 50.0]]
            // end::arrays[]
            assertEquals(50f, x);
            assertEquals(3f, m);
            assertArrayEquals(new float[] {0, 1, 2, 3, 4, 50}, values);
            assertEquals("f32[2,3]{0,1}\n[[0.0, 1.0, 2.0],\n [3.0, 4.0, 50.0]]", a.toString().strip());
            // tag::arrays[]
        }
        // end::arrays[]
    }

    @Test
    void lifetime() {
        Array escaped;
        // tag::lifetime[]
        Array a;
        try (Arena arena = Arena.ofConfined()) {
            a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 4));
            a.fill(1.0);
        }                                                  // the arena frees the memory here
        // a.getFloat(0) now throws IllegalStateException: the arena is closed
        // end::lifetime[]
        escaped = a;
        assertThrows(IllegalStateException.class, () -> escaped.getFloat(0));
    }

    // tag::runs[]
    static final VectorSpecies<Float> S = FloatVector.SPECIES_PREFERRED;
    static final ByteOrder NATIVE = ByteOrder.nativeOrder();
    static final ValueLayout.OfFloat F32 = ValueLayout.JAVA_FLOAT_UNALIGNED;

    /** y += a·x, for any two f32 arrays of the same dimensions (long runs when they share a layout). */
    static void axpy(float a, Array x, Array y) {
        FloatVector va = FloatVector.broadcast(S, a);
        Runs r = Runs.of(x, y);                                  // memory order of x, padding skipped
        while (r.next()) {
            MemorySegment xs = r.segment(0), ys = r.segment(1);
            long xo = r.offset(0), yo = r.offset(1), n = r.length(), i = 0;
            for (; i < S.loopBound(n); i += S.length()) {        // unit stride: plain vector loads
                FloatVector vy = FloatVector.fromMemorySegment(S, ys, yo + 4 * i, NATIVE);
                FloatVector.fromMemorySegment(S, xs, xo + 4 * i, NATIVE).fma(va, vy)
                        .intoMemorySegment(ys, yo + 4 * i, NATIVE);
            }
            for (; i < n; i++) {                                 // the run's tail
                float xv = xs.get(F32, xo + 4 * i), yv = ys.get(F32, yo + 4 * i);
                ys.set(F32, yo + 4 * i, Math.fma(xv, a, yv));
            }
        }
    }

    /** The sum of the elements of an f32 array, whatever its layout (padding is not visited). */
    static float sum(Array x) {
        FloatVector acc = FloatVector.zero(S);
        float tail = 0;
        Runs r = Runs.of(x);
        while (r.next()) {
            MemorySegment xs = r.segment();
            long xo = r.offset(), n = r.length(), i = 0;
            for (; i < S.loopBound(n); i += S.length()) {
                acc = acc.add(FloatVector.fromMemorySegment(S, xs, xo + 4 * i, NATIVE));
            }
            for (; i < n; i++) {
                tail += xs.get(F32, xo + 4 * i);
            }
        }
        return acc.reduceLanes(VectorOperators.ADD) + tail;
    }
    // end::runs[]

    // tag::runs-blocks[]
    static final int BUFFER = 1024;

    /** y += a·x for any two f32 arrays of the same dimensions, whatever their layouts. */
    static void axpyAnyLayouts(float a, Array x, Array y, MemorySegment buffer) {   // buffer: BUFFER floats
        FloatVector va = FloatVector.broadcast(S, a);
        Runs r = Runs.blocks(BUFFER, y, x);                     // memory order of y, blocks of at most BUFFER
        while (r.next()) {
            MemorySegment ys = r.segment(0), xs = r.segment(1);
            long yo = r.offset(0), xo = r.offset(1), n = r.length(), i = 0;
            long yStride = r.stride(0), xStride = r.stride(1);  // bytes between a block's elements
            if (xStride != 4) {                                  // x is strided here: copy its block
                for (long k = 0; k < n; k++) {
                    buffer.set(F32, 4 * k, xs.get(F32, xo + k * xStride));
                }
                xs = buffer;
                xo = 0;
            }
            if (yStride == 4) {                                  // the unit-stride loop of axpy
                for (; i < S.loopBound(n); i += S.length()) {
                    FloatVector vy = FloatVector.fromMemorySegment(S, ys, yo + 4 * i, NATIVE);
                    FloatVector.fromMemorySegment(S, xs, xo + 4 * i, NATIVE).fma(va, vy)
                            .intoMemorySegment(ys, yo + 4 * i, NATIVE);
                }
            }
            for (; i < n; i++) {                                 // the tail, or a strided y
                long at = yo + i * yStride;
                ys.set(F32, at, Math.fma(xs.get(F32, xo + 4 * i), a, ys.get(F32, at)));
            }
        }
    }
    // end::runs-blocks[]

    @Test
    void runsBlocks() {
        // tag::runs-blocks-use[]
        try (Arena arena = Arena.ofConfined()) {
            Array x = Array.allocate(arena, ArrayShape.parse("f32[300,200]{0,1}"));          // column-major
            Array y = Array.allocate(arena, ArrayShape.parse("f32[300,200]{1,0:T(8,128)}")); // tiled
            x.fill(2.0);
            y.fill(1.0);
            MemorySegment buffer = arena.allocate(4L * BUFFER, 64);    // native, as the arrays are
            axpyAnyLayouts(0.5f, x, y, buffer);            // blocks of tile rows, x's stride 300 floats
            float s = sum(y);                              // 120000.0, without a relayout
            // end::runs-blocks-use[]
            assertEquals(120000f, s);
            assertEquals(2f, y.getFloat(299, 130));
            // tag::runs-blocks-use[]
        }
        // end::runs-blocks-use[]
        try (Arena arena = Arena.ofConfined()) {
            Array x = Array.allocate(arena, ArrayShape.parse("f32[300,200]{0,1}"));
            Array y = Array.allocate(arena, ArrayShape.parse("f32[300,200]{1,0:T(8,128)}"));
            float[] values = new float[300 * 200];
            for (int k = 0; k < values.length; k++) {
                values[k] = k % 977;
            }
            x.copyFrom(values);
            y.fill(1.0);
            MemorySegment buffer = arena.allocate(4L * BUFFER, 64);
            axpyAnyLayouts(0.5f, x, y, buffer);
            for (int i = 0; i < 300; i++) {
                for (int j = 0; j < 200; j++) {
                    assertEquals(1f + 0.5f * values[i * 200 + j], y.getFloat(i, j), "at " + i + "," + j);
                }
            }
            Array strided = Array.allocate(arena, ArrayShape.parse("f32[300,400]{1,0}")).slice(1, 0, 400, 2);
            strided.fill(1.0);
            axpyAnyLayouts(0.5f, x, strided, buffer);      // y strided too: the scalar loop
            assertEquals(1f + 0.5f * values[7 * 200 + 9], strided.getFloat(7, 9));
        }
    }

    @Test
    void runs() {
        // tag::runs-use[]
        try (Arena arena = Arena.ofConfined()) {
            ArrayShape tiled = ArrayShape.parse("f32[300,200]{1,0:T(8,128)}");   // partial tiles: padding
            Array x = Array.allocate(arena, tiled);
            Array y = Array.allocate(arena, tiled);
            x.fill(2.0);
            y.fill(1.0);
            axpy(0.5f, x, y);                              // one layout: runs of whole tile rows and more
            float s = sum(y);                              // 120000.0: 60000 elements of 2.0

            // two layouts: move x into z's layout once through a plan, then the runs are long again
            Array z = Array.allocate(arena, ArrayShape.parse("f32[300,200]{0,1}"));
            Array xz = Array.allocate(arena, z.shape());
            RelayoutPlan plan = Relayout.plan(x, xz);      // made once, reusable on any buffers
            plan.execute(x, xz);
            axpy(3f, xz, z);                               // z = 3·x: 6.0 everywhere
            float t = sum(z);                              // 360000.0
            // end::runs-use[]
            assertEquals(120000f, s);
            assertEquals(360000f, t);
            assertEquals(6f, z.getFloat(299, 199));
            assertEquals(2f, y.getFloat(7, 130));
            // tag::runs-use[]
        }
        // end::runs-use[]
    }

    @Test
    void relayout() {
        // tag::relayout[]
        try (Arena arena = Arena.ofConfined()) {
            Array src = Array.allocate(arena, ArrayShape.parse("bf16[256,512]{1,0}"));
            src.setFloat(3, 200, 2.5f);

            // a new array in another layout
            Array tiled = Relayout.to(src, Layout.rowMajor(2).withTiles(Tile.of(8, 128), Tile.of(2, 1)), arena);

            // or into an array you already have
            Array columnMajor = Array.allocate(arena, ArrayShape.parse("bf16[256,512]{0,1}"));
            Relayout.copy(tiled, columnMajor);
            float x = columnMajor.getFloat(3, 200);        // 2.5

            // plans: made once per pair of shapes, immutable, reusable on any buffers
            RelayoutPlan plan = Relayout.plan(src.shape(), columnMajor.shape());
            plan.execute(src.segment(), columnMajor.segment());
            System.out.println(plan.describe());           // the loops the planner chose
            // end::relayout[]
            assertEquals(2.5f, x);
            assertEquals(2.5f, tiled.getFloat(3, 200));
            assertEquals("bf16[256,512]{1,0:T(8,128)(2,1)}", tiled.shape().toString());
            assertTrue(!plan.describe().isEmpty());
            // tag::relayout[]
        }
        // end::relayout[]
    }

    @Test
    void planning() throws IOException {
        // tag::planning[]
        ArrayShape from = ArrayShape.parse("f32[16,256,256]{2,1,0}");
        ArrayShape to = from.withLayout(Layout.of(0, 1, 2));
        Path file = Files.createTempDirectory("tegula").resolve("relayout-wisdom.txt");

        PlanCache plans = new PlanCache(16, Wisdom.at(file));             // a cache of your own
        RelayoutPlan tuned = plans.plan(from, to, Planning.MEASURE, 1);   // times candidate walks
        for (PlanMeasurement m : tuned.report().measurements()) {
            System.out.printf("%s%s %.1f GB/s%n", m.chosen() ? "* " : "  ", m.candidate(), m.gigabytesPerSecond());
        }

        // later (another process): the choice comes from the wisdom file, nothing is timed
        RelayoutPlan again = new PlanCache(16, Wisdom.at(file)).plan(from, to, Planning.MEASURE, 1);
        PlanOrigin origin = again.report().origin();                        // WISDOM
        // end::planning[]
        assertEquals(PlanOrigin.MEASURED, tuned.report().origin());
        assertEquals(PlanOrigin.WISDOM, origin);
        assertEquals(tuned.walks(), again.walks());
        assertTrue(again.report().measurements().isEmpty());
        Files.delete(file);
        Files.delete(file.getParent());
    }

    @Test
    void interop() {
        // tag::interop[]
        try (Arena arena = Arena.ofConfined()) {
            // memory that came from elsewhere: a mapped file, a buffer a native library filled
            MemorySegment memory = arena.allocate(4 * 6 * Float.BYTES);
            memory.setAtIndex(ValueLayout.JAVA_FLOAT, 1, 7f);
            Array a = Array.wrap(memory, ArrayShape.parse("f32[4,6]{0,1}"));  // no copy
            float x = a.getFloat(1, 0);                     // 7.0: slot 1 of a column-major array
            // end::interop[]
            assertEquals(7f, x);
            // tag::interop[]
        }
        // end::interop[]
    }

    @Test
    void errors() {
        boolean caught = false;
        // tag::errors[]
        try {
            Shape.parse("f32[2,x]");
        } catch (ShapeParseException e) {                  // an IllegalArgumentException
            int offset = e.offset();                       // 6
            String caret = e.caretDiagram();               // "f32[2,x]\n      ^"
            // end::errors[]
            assertEquals(6, offset);
            assertEquals("f32[2,x]\n      ^", caret);
            caught = true;
            // tag::errors[]
        }
        // end::errors[]
        assertTrue(caught);
        // tag::errors-thrown[]
        // InvalidShapeException (an IllegalArgumentException): at offset 11: layout minor_to_major field has
        // duplicate values: {1,1}; shape: f32[2,3] in 'f32[2,3]{1,1}'
        assertThrows(IllegalArgumentException.class, () -> Shape.parse("f32[2,3]{1,1}"));
        // IndexOutOfBoundsException: index [3, 0] is out of bounds for f32[3,5]
        assertThrows(IndexOutOfBoundsException.class, () -> ArrayShape.of(ElementType.F32, 3, 5).linearIndex(3, 0));
        // end::errors-thrown[]
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> Shape.parse("f32[2,3]{1,1}"));
        assertEquals("layout minor_to_major field has duplicate values: {1,1}; shape: f32[2,3]",
                assertInstanceOf(dev.tegula.core.InvalidShapeException.class, bad).problem());
        assertEquals("at offset 11: layout minor_to_major field has duplicate values: {1,1}; shape: f32[2,3]"
                + " in 'f32[2,3]{1,1}'", bad.getMessage());
        IndexOutOfBoundsException out = assertThrows(IndexOutOfBoundsException.class,
                () -> ArrayShape.of(ElementType.F32, 3, 5).linearIndex(3, 0));
        assertEquals("index [3, 0] is out of bounds for f32[3,5]", out.getMessage());
    }

    @Test
    void threads() throws Exception {
        Throwable cause;
        // tag::threads[]
        try (Arena arena = Arena.ofConfined(); ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 4));
            Future<Float> f = pool.submit(() -> a.getFloat(0));
            // f.get() throws ExecutionException caused by WrongThreadException: a confined arena
            // belongs to the thread that made it
            // end::threads[]
            cause = assertThrows(ExecutionException.class, f::get).getCause();
            // tag::threads[]
        }
        // end::threads[]
        assertInstanceOf(WrongThreadException.class, cause);
        // tag::threads-shared[]
        try (Arena arena = Arena.ofShared(); ExecutorService pool = Executors.newFixedThreadPool(2)) {
            Array src = Array.allocate(arena, ArrayShape.parse("f32[1024,1024]{1,0}"));
            Array dst = Array.allocate(arena, ArrayShape.parse("f32[1024,1024]{0,1}"));
            src.setFloat(1023, 0, 9f);
            Relayout.copy(src, dst, pool, 2);              // up to 2 tasks of the pool share the work
            float x = dst.getFloat(1023, 0);               // 9.0
            // end::threads-shared[]
            assertEquals(9f, x);
            // tag::threads-shared[]
        }
        // end::threads-shared[]
    }

    @Test
    void convertCheckpoint(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
        java.nio.file.Path model = dir.resolve("model.safetensors");
        java.nio.file.Path tiled = dir.resolve("model-tiled.safetensors");
        try (Arena arena = Arena.ofConfined()) {
            java.util.Map<String, Array> t = new java.util.LinkedHashMap<>();
            t.put("w.weight", Array.allocate(arena, ArrayShape.of(ElementType.F32, 20, 300)));
            t.put("w.bias", Array.allocate(arena, ArrayShape.of(ElementType.F32, 300)));
            t.put("step", Array.allocate(arena, ArrayShape.of(ElementType.S64)));
            dev.tegula.io.safetensors.SafeTensors.write(t, model);
        }
        java.util.List<String> printed = new java.util.ArrayList<>();
        // tag::convert[]
        // 2-D weights tiled for the device, every floating-point tensor to bf16, the rest row-major
        ConvertRules rules = ConvertRules.all()
                .layout("rank2:*.weight", "{1,0:T(8,128)(2,1)}")
                .floatType(ElementType.BF16);
        ConvertReport report = TensorFiles.convert(model, tiled, rules,
                ConvertOptions.defaults().withMemory(64L << 20));   // windows of at most 32 MiB
        for (ConvertReport.Tensor t : report.tensors()) {
            printed.add(t.name() + " " + t.to());    // w.weight bf16[20,300]{1,0:T(8,128)(2,1)}, ...
        }
        // end::convert[]
        assertEquals(java.util.List.of("w.weight bf16[20,300]{1,0:T(8,128)(2,1)}", "w.bias bf16[300]{0}", "step s64[]"),
                printed);
    }

    @Test
    void convertShardedCheckpoint(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws java.io.IOException {
        java.nio.file.Path checkpoint = java.nio.file.Files.createDirectory(dir.resolve("tiny-llama"));
        java.nio.file.Path fixture = java.nio.file.Path.of("../io/src/test/resources/dev/tegula/io/checkpoint/tiny-llama");
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(fixture)) {
            for (java.nio.file.Path f : files.toList()) {
                java.nio.file.Files.copy(f, checkpoint.resolve(f.getFileName().toString()));
            }
        }
        java.nio.file.Path tiled = dir.resolve("tiny-llama-tiled");
        // tag::convert-checkpoint[]
        // tiny-llama: a Llama of two layers that transformers saved in three shards
        ConvertReport report = TensorFiles.convert(checkpoint, tiled,
                ConvertRules.all().layout("rank2:*.weight", "{1,0:T(8,128)(2,1)}"), ConvertOptions.defaults());
        report.format();       // SAFETENSORS_CHECKPOINT: 3 shards, model.safetensors.index.json
        report.copied();       // config.json, generation_config.json, tokenizer.json, tokenizer_config.json
        try (Arena arena = Arena.ofConfined()) {
            Array w = TensorFiles.read(tiled, "lm_head.weight", arena);          // bf16[128,64]{1,0:T(8,128)(2,1)}
            Array n = TensorFiles.read(tiled, "model.norm.weight", arena);       // bf16[64]{0}: rank 1, row-major
            // end::convert-checkpoint[]
            assertEquals("bf16[128,64]{1,0:T(8,128)(2,1)}", w.shape().toString());
            assertEquals("bf16[64]{0}", n.shape().toString());
            // tag::convert-checkpoint[]
        }
        // end::convert-checkpoint[]
        assertEquals(dev.tegula.io.TensorFormat.SAFETENSORS_CHECKPOINT, report.format());
        assertEquals(java.util.List.of("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json"),
                report.copied().stream().map(p -> p.getFileName().toString()).toList());
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(tiled)) {
            assertEquals(java.util.List.of("config.json", "generation_config.json", "model-00001-of-00003.safetensors",
                    "model-00002-of-00003.safetensors", "model-00003-of-00003.safetensors", "model.safetensors.index.json",
                    "tokenizer.json", "tokenizer_config.json"),
                    files.map(p -> p.getFileName().toString()).sorted().toList());
        }
    }
}
