package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.vector.Relayout;
import dev.tegula.vector.RelayoutPlan;
import dev.tegula.vector.bench.RelayoutCases;
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
 * on one thread; {@code relayout2} and {@code copy2} on two (the copy split in two halves).
 * Report ({@link Report}): bytes/s = {@link RelayoutCases.Case#bytes} / time; ratio = copy time / relayout time.
 * Buffers are allocated with 4 KiB pages (the JVM's default; no huge-page request).
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
    })
    public String relayoutCase;

    private Arena arena;
    private MemorySegment src;
    private MemorySegment dst;
    private MemorySegment srcCopy;
    private MemorySegment copyDst;
    private RelayoutPlan plan;
    private ExecutorService pool;
    private long bytes;

    @Setup(Level.Trial)
    public void setUp() {
        RelayoutCases.Case c = RelayoutCases.parse(relayoutCase);
        ArrayShape from = c.from();
        ArrayShape to = c.to();
        plan = Relayout.plan(from, to);
        arena = Arena.ofShared();
        src = arena.allocate(from.bufferSize(), 4096);
        dst = arena.allocate(to.bufferSize(), 4096);
        bytes = c.bytes();
        srcCopy = arena.allocate(bytes, 4096);
        copyDst = arena.allocate(bytes, 4096);
        srcCopy.fill((byte) 3);
        for (long i = 0; i < src.byteSize(); i += 8) {
            src.set(ValueLayout.JAVA_LONG_UNALIGNED, i, i * 0x9E3779B97F4A7C15L);
        }
        dst.fill((byte) 1);
        copyDst.fill((byte) 1);
        pool = Executors.newFixedThreadPool(2);
        System.out.println("# plan: " + plan);
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

    @Benchmark
    public MemorySegment relayout2() {
        plan.execute(src, dst, pool, 2);
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
