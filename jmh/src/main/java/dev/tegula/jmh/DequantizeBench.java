package dev.tegula.jmh;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.HostMemory;
import dev.tegula.vector.quant.Dequantize;
import dev.tegula.vector.quant.QuantBlock;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
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
 * Dequantizing a 4096 x 4096 block-quantized tensor (llama.cpp's block types, as GGUF stores them)
 * into f32 row-major and into bf16 {@code {1,0:T(8,128)(2,1)}}, against {@code MemorySegment.copy}
 * of the output's bytes (64 MiB f32, 32 MiB bf16) in the same fork. {@code dequantize} and
 * {@code copy} run on one thread; {@code dequantize2} and {@code copy2} on two (the copy split in two
 * halves). Ratio = copy time / dequantize time. Source blocks are random bytes with small finite f16
 * scales. {@code pages}: as in {@link RelayoutBench}, {@code huge} allocates every buffer (blocks,
 * destination, the copy's two) through {@link HostMemory} on transparent huge pages, {@code 4k}
 * through the same call with the huge-page request off; the setup prints which pages each buffer got.
 * {@code vectorCopy} copies the same bytes with Vector API loads and stores ({@link VectorCopy}): what
 * storing the output through the cache costs, with as many bytes read.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"--add-modules", "jdk.incubator.vector", "--enable-native-access=ALL-UNNAMED",
    "-Xmx1g"})
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class DequantizeBench {
    /** The block type. */
    @Param({"Q8_0", "Q4_0", "Q4_1", "Q5_0", "Q5_1", "Q2_K", "Q3_K", "Q4_K", "Q5_K", "Q6_K"})
    public String type;

    /** The destination: {@code f32} = {@code f32[4096,4096]{1,0}}, {@code bf16_T} = {@code bf16[4096,4096]{1,0:T(8,128)(2,1)}}. */
    @Param({"f32", "bf16_T"})
    public String target;

    /** {@code huge}: buffers on transparent huge pages; {@code 4k}: without the huge-page request. */
    @Param({"huge", "4k"})
    public String pages;

    private Arena arena;
    private QuantBlock q;
    private MemorySegment blocks;
    private Array dst;
    private MemorySegment copySrc;
    private MemorySegment copyDst;
    private ExecutorService pool;
    private long bytes;

    @Setup(Level.Trial)
    public void setUp() {
        q = QuantBlock.valueOf(type);
        ArrayShape shape = ArrayShape.parse(target.equals("f32") ? "f32[4096,4096]{1,0}"
                : "bf16[4096,4096]{1,0:T(8,128)(2,1)}");
        arena = Arena.ofShared();
        System.setProperty(HostMemory.PROPERTY, String.valueOf(pages.equals("huge")));
        long n = shape.elementCount() / q.blockSize();
        blocks = HostMemory.allocate(arena, n * q.blockBytes(), 4096);
        Random r = new Random(1);
        for (long i = 0; i < blocks.byteSize(); i += 8) {
            blocks.set(ValueLayout.JAVA_LONG_UNALIGNED, i, r.nextLong());
        }
        int[] scales = switch (q) {
            case Q4_0, Q5_0, Q8_0 -> new int[] {0};
            case Q4_1, Q5_1, Q4_K, Q5_K -> new int[] {0, 2};
            case Q2_K -> new int[] {80, 82};
            case Q3_K -> new int[] {108};
            case Q6_K -> new int[] {208};
        };
        for (long b = 0; b < n; b++) {
            for (int at : scales) {
                blocks.set(ValueLayout.JAVA_SHORT_UNALIGNED, b * q.blockBytes() + at,
                        Float.floatToFloat16((float) r.nextGaussian() * 0.01f));
            }
        }
        bytes = shape.bufferSize();
        dst = Array.wrap(HostMemory.allocate(arena, bytes, 4096), shape);
        copySrc = HostMemory.allocate(arena, bytes, 4096);
        copyDst = HostMemory.allocate(arena, bytes, 4096);
        copySrc.fill((byte) 3);
        copyDst.fill((byte) 1);
        dst.segment().fill((byte) 1);
        pool = Executors.newFixedThreadPool(2);
        System.out.println("# pages: " + pages + ", AnonHugePages MiB of blocks/dst/copy src/copy dst: "
                + RelayoutBench.hugeMiB(blocks) + "/" + RelayoutBench.hugeMiB(dst.segment()) + "/"
                + RelayoutBench.hugeMiB(copySrc) + "/" + RelayoutBench.hugeMiB(copyDst) + " (of "
                + (blocks.byteSize() >> 20) + "/" + (bytes >> 20) + "/" + (bytes >> 20) + "/" + (bytes >> 20) + ")");
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        pool.shutdown();
        arena.close();
    }

    @Benchmark
    public Array dequantize() {
        Dequantize.copy(q, blocks, dst);
        return dst;
    }

    @Benchmark
    public Array dequantize2() {
        Dequantize.copy(q, blocks, dst, pool, 2);
        return dst;
    }

    @Benchmark
    public MemorySegment copy() {
        MemorySegment.copy(copySrc, 0, copyDst, 0, bytes);
        return copyDst;
    }

    @Benchmark
    public MemorySegment vectorCopy() {
        VectorCopy.copy(copySrc, copyDst, bytes);
        return copyDst;
    }

    @Benchmark
    public MemorySegment copy2() throws Exception {
        long half = bytes / 2;
        var f = pool.submit(() -> MemorySegment.copy(copySrc, 0, copyDst, 0, half));
        MemorySegment.copy(copySrc, half, copyDst, half, bytes - half);
        f.get();
        return copyDst;
    }
}
