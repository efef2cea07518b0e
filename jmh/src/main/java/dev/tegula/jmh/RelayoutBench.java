package dev.tegula.jmh;

import dev.tegula.bench.RelayoutCases;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.HostMemory;
import dev.tegula.vector.PlanCache;
import dev.tegula.vector.Planning;
import dev.tegula.bench.MemoryMaps;
import dev.tegula.vector.Relayout;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.Wisdom;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The relayout cases of the engine against {@code MemorySegment.copy} of the same bytes, in the
 * same fork. Arrays are 64–256 MiB so nothing fits in cache. {@code relayout} and {@code copy} run
 * on one thread; {@code relayout2} and {@code copy2} on two (the copy split in two halves);
 * {@code vectorCopy} is the second baseline ({@link VectorCopy}; one thread, in the report as "vector copy").
 * Report ({@link Report}): bytes/s = {@link RelayoutCases.Case#bytes} / time; ratio = copy time / relayout time.
 *
 * <p>{@code pages}: {@code huge} allocates every buffer, the copy baseline's included, through
 * {@link HostMemory} with huge pages (2 MiB-aligned, {@code madvise(MADV_HUGEPAGE)}: the default for
 * Tegula's arrays on Linux); {@code 4k} through the same call with {@code -Dtegula.hugePages=false}
 * in effect (the JVM's own allocation, 4 KiB pages where THP is in {@code madvise} mode). The setup
 * prints the {@code AnonHugePages} of each buffer so the log says which pages a run had.
 * {@code -p relayoutCase=NAME} on JMH's command line takes a case by its name alone.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
    "-Xmx2g"})
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class RelayoutBench {

    /** The case ({@link RelayoutCases}): name, source shape text, destination layout. */
    @Param({
        RelayoutCases.F32_8192X8192_T,
        RelayoutCases.BF16_8192X8192_T,
        RelayoutCases.F32_3D_210,
        RelayoutCases.F32_3D_102,
        RelayoutCases.F32_3D_021,
        RelayoutCases.F32_4D_3210,
        RelayoutCases.F32_4D_0231,
        RelayoutCases.BF16_TO_T8X128,
        RelayoutCases.BF16_FROM_T8X128,
        RelayoutCases.BF16_TO_T8X128_2X1,
        RelayoutCases.BF16_FROM_T8X128_2X1,
        RelayoutCases.S4_PACK_E4,
        RelayoutCases.S4_UNPACK_E4,
        RelayoutCases.F32_TO_BF16_T,
        RelayoutCases.F32_TO_BF16_T8X128_2X1,
        RelayoutCases.BF16_TO_F32,
        RelayoutCases.BF16_T8X128_2X1_TO_F32,
        RelayoutCases.BF16_TO_F32_T,
        RelayoutCases.F16_TO_F32,
        RelayoutCases.F8E4M3FN_TO_F32,
        RelayoutCases.F8E5M2_T8X128_4X1_TO_F32,
        RelayoutCases.S8_TO_F32,
        RelayoutCases.S4_E4_TO_F32,
        RelayoutCases.F32_TO_F64,
        RelayoutCases.F64_TO_F32,
        RelayoutCases.BF16_TO_F64_T,
    })
    public String relayoutCase;

    /** {@code huge}: buffers on transparent huge pages; {@code 4k}: without the huge-page request. */
    @Param({"huge", "4k"})
    public String pages;

    /**
     * {@code true}: before measuring, the fork runs many other relayouts (small shapes of every
     * family, several element types, strided views, conversions) so that the engine's call sites
     * have the polluted profiles of a process that has run many relayouts; {@code false}: a fresh fork.
     */
    @Param({"false", "true"})
    public boolean used;

    /**
     * {@code estimate}: the plans Tegula makes by rule ({@code Planning.ESTIMATE}); {@code measure}:
     * plans chosen by timing candidates ({@code Planning.MEASURE}) on this fork's own buffers, one for
     * one thread and one for two, in a cache of their own with no wisdom (every fork measures afresh;
     * the setup prints how long planning took and what each plan chose).
     */
    @Param({"estimate", "measure"})
    public String planning;

    private Arena arena;
    private MemorySegment src;
    private MemorySegment dst;
    private MemorySegment srcCopy;
    private MemorySegment copyDst;
    private RelayoutPlan plan;
    private RelayoutPlan plan2;
    private ExecutorService pool;
    private long bytes;

    @Setup(Level.Trial)
    public void setUp() {
        RelayoutCases.Case c = RelayoutCases.parse(resolve(relayoutCase));
        ArrayShape from = c.from();
        ArrayShape to = c.to();
        arena = Arena.ofShared();
        System.setProperty(HostMemory.PROPERTY, String.valueOf(pages.equals("huge")));
        src = HostMemory.allocate(arena, from.bufferSize(), 4096);
        dst = HostMemory.allocate(arena, to.bufferSize(), 4096);
        bytes = c.bytes();
        srcCopy = HostMemory.allocate(arena, bytes, 4096);
        copyDst = HostMemory.allocate(arena, bytes, 4096);
        srcCopy.fill((byte) 3);
        fillSource(src);
        dst.fill((byte) 1);
        copyDst.fill((byte) 1);
        pool = Executors.newFixedThreadPool(2);
        if (used) {
            System.out.println("# used JVM: " + pollute() + " relayouts of other cases first");
        }
        if (planning.equals("measure")) {
            PlanCache cache = new PlanCache(4, Wisdom.inMemory());
            Array a = Array.wrap(src, from);
            Array b = Array.wrap(dst, to);
            long t0 = System.nanoTime();
            plan = cache.plan(a, b, Planning.MEASURE, 1, null);
            long t1 = System.nanoTime();
            plan2 = cache.plan(a, b, Planning.MEASURE, 2, pool);
            long t2 = System.nanoTime();
            System.out.printf("# planning (MEASURE): %.0f ms for one thread, %.0f ms for two%n", (t1 - t0) / 1e6,
                    (t2 - t1) / 1e6);
        } else {
            plan = Relayout.plan(from, to, Planning.ESTIMATE, 1);
            plan2 = Relayout.plan(from, to, Planning.ESTIMATE, 2);
        }
        System.out.println("# plan: " + plan);
        System.out.println("# plan for two threads: " + plan2.describe());
        System.out.println("# pages: " + pages + ", AnonHugePages MiB of src/dst/copy src/copy dst: "
                + hugeMiB(src) + "/" + hugeMiB(dst) + "/" + hugeMiB(srcCopy) + "/" + hugeMiB(copyDst)
                + " (of " + (src.byteSize() >> 20) + "/" + (dst.byteSize() >> 20) + "/" + (bytes >> 20) + "/"
                + (bytes >> 20) + ")");
    }

    /** Small relayouts of other families, types and views, repeated until C2 has compiled them. */
    static long pollute() {
        String[][] pairs = {
            {"f32[64,96]{1,0}", "{0,1}"}, {"bf16[64,256]{1,0}", "{0,1}"}, {"bf16[64,256]{1,0}", "{1,0:T(8,128)(2,1)}"},
            {"bf16[64,256]{1,0:T(8,128)}", "{1,0}"}, {"s4[64,256]{1,0}", "{1,0:E(4)}"}, {"s4[64,256]{1,0:E(4)}", "{1,0}"},
            {"f32[8,16,40]{2,1,0}", "{0,1,2}"}, {"f32[8,16,40]{2,1,0}", "{1,2,0}"}, {"f32[8,16,40]{2,1,0}", "{2,0,1}"},
            {"f32[8,8,8,40]{3,2,1,0}", "{1,3,2,0}"}, {"f32[8,8,8,40]{3,2,1,0}", "{0,1,2,3}"},
            {"f64[32,48]{1,0}", "{0,1}"}, {"s8[64,256]{1,0}", "{0,1}"}, {"u8[16,256]{1,0}", "{1,0:T(8,128)(4,1)}"},
            {"f16[33,65]{0,1}", "{1,0:T(2,2)}"}, {"f32[40,300]{1,0}", "bf16{0,1}"}, {"f32[40,300]{1,0}", "bf16{1,0}"},
            {"s32[50,70]{1,0}", "f32{1,0}"}, {"c64[16,16]{1,0}", "{0,1}"}, {"pred[64,64]{1,0}", "{0,1}"},
        };
        long n = 0;
        for (int round = 0; round < 200; round++) {
            try (Arena a = Arena.ofConfined()) {
                for (String[] p : pairs) {
                    RelayoutCases.Case k = RelayoutCases.parse("x|" + p[0] + "|" + p[1]);
                    Array src = Array.allocate(a, k.from());
                    Array dst = Array.allocate(a, k.to());
                    Relayout.copy(src, dst);
                    n++;
                    if (src.shape().rank() == 2 && !src.shape().layout().isTiled() && src.slotStrides() != null) {
                        // strided views: every other row, and a transposed view
                        Array rows = src.slice(0, 0, src.shape().dimension(0), 2);
                        Relayout.to(rows, Layout.of(0, 1), a);
                        Relayout.to(src.permute(1, 0), Layout.of(1, 0), a);
                        n += 2;
                    }
                }
            }
        }
        return n;
    }

    /** MiB of huge pages under the mapping of a buffer (-1: unknown); a mapping may hold more than the buffer. */
    static long hugeMiB(MemorySegment s) {
        long b = MemoryMaps.anonHugePageBytes(s);
        return b < 0 ? -1 : b >> 20;
    }

    /** Fills a source buffer with a bit pattern that differs from word to word. */
    static void fillSource(MemorySegment src) {
        for (long i = 0; i + 8 <= src.byteSize(); i += 8) {
            src.set(ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);
        }
    }

    /**
     * {@return the full case string for a case name of {@link RelayoutCases#SPECS},
     * {@link RelayoutCases#IN_CACHE} or {@link RelayoutCases#NARROW}} ({@code -p
     * relayoutCase=f32_3d_210} on JMH's command line, where the commas of a layout would split the
     * parameter), or the argument itself.
     */
    static String resolve(String relayoutCase) {
        return RelayoutCases.byName(relayoutCase);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.shutdown();
        arena.close();
    }

    @Benchmark
    public MemorySegment relayout() {
        plan.execute(src, dst);
        return dst;
    }

    @Benchmark
    public MemorySegment copy() {
        MemorySegment.copy(srcCopy, 0, copyDst, 0, bytes);
        return copyDst;
    }

    /** The same bytes copied with Vector API loads and stores, on the same pages ({@link VectorCopy}). */
    @Benchmark
    public MemorySegment vectorCopy() {
        VectorCopy.copy(srcCopy, copyDst, bytes);
        return copyDst;
    }

    @Benchmark
    public MemorySegment relayout2() {
        plan2.execute(src, dst, pool, 2);
        return dst;
    }

    @Benchmark
    public MemorySegment copy2() throws Exception {
        long half = bytes / 2;
        var f = pool.submit(() -> MemorySegment.copy(srcCopy, 0, copyDst, 0, half));
        MemorySegment.copy(srcCopy, half, copyDst, half, bytes - half);
        f.get();
        return copyDst;
    }
}
