import java.lang.foreign.*;
import java.nio.ByteOrder;
import jdk.incubator.vector.*;

/**
 * The reads of a blocked f32[8192,8192] transpose without its permutes and stores: what the source
 * side alone costs, next to a sequential read of the same 256 MiB (huge pages). For each block shape
 * (elements of a source row x source rows), strips of 16 source rows read a 64-byte line of each row
 * per step with 512-bit loads (the 16x16 tiles), or half a line with 256-bit loads (two 8x8 tiles
 * side by side). Four rounds, GB/s read; the first round includes compilation.
 *
 *   java --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED jmh/peers/ReadPattern.java
 */
public class ReadPattern {
    static final VectorSpecies<Integer> I16 = IntVector.SPECIES_512;
    static final VectorSpecies<Integer> I8 = IntVector.SPECIES_256;
    static final ByteOrder NO = ByteOrder.nativeOrder();
    static final long N = 8192, ROW = N * 4, BYTES = N * N * 4;

    static MemorySegment huge(Arena a, long size) {
        Linker l = Linker.nativeLinker();
        try {
            var madvise = l.downcallHandle(l.defaultLookup().find("madvise").get(),
                    FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.ADDRESS, ValueLayout.JAVA_LONG, ValueLayout.JAVA_INT));
            MemorySegment s = a.allocate(size, 2 << 20);
            int rc = (int) madvise.invokeExact(s, size, 14);   // MADV_HUGEPAGE
            if (rc != 0) {
                System.err.println("madvise(MADV_HUGEPAGE) refused: the source is on 4 KiB pages");
            }
            return s;
        } catch (Throwable t) { throw new RuntimeException(t); }
    }

    static int seq(MemorySegment s) {
        IntVector acc = IntVector.zero(I16);
        for (long o = 0; o < BYTES; o += 256) {
            acc = acc.add(IntVector.fromMemorySegment(I16, s, o, NO)).add(IntVector.fromMemorySegment(I16, s, o + 64, NO))
                    .add(IntVector.fromMemorySegment(I16, s, o + 128, NO)).add(IntVector.fromMemorySegment(I16, s, o + 192, NO));
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    /**
     * Strips of 16 source rows in blocks of bi elements of a row by bj rows: per step one load of each
     * row, of the species' width (512 bits: a line, the 16x16 tiles; 256 bits: half a line, two 8x8
     * tiles side by side).
     */
    static int strips(MemorySegment s, long bi, long bj, VectorSpecies<Integer> species) {
        IntVector acc = IntVector.zero(species);
        int step = species.length();
        for (long jb = 0; jb < N; jb += bj) {
            for (long ib = 0; ib < N; ib += bi) {
                for (long j = jb; j < jb + bj; j += 16) {
                    long base = j * ROW;
                    for (long i = ib; i < ib + bi; i += step) {
                        long o = base + i * 4;
                        for (int r = 0; r < 16; r++) {
                            acc = acc.add(IntVector.fromMemorySegment(species, s, o + r * ROW, NO));
                        }
                    }
                }
            }
        }
        return acc.reduceLanes(VectorOperators.ADD);
    }

    public static void main(String[] args) {
        Arena a = Arena.global();
        MemorySegment s = huge(a, BYTES);
        for (long o = 0; o < BYTES; o += 8) s.set(ValueLayout.JAVA_LONG, o, o);
        long[][] blocks = {{512, 64}, {1024, 32}, {256, 32}, {512, 32}, {2048, 16}, {128, 128}, {8192, 16}, {64, 64}};
        int sink = 0;
        for (int round = 0; round < 4; round++) {
            StringBuilder b = new StringBuilder();
            long t0 = System.nanoTime(); sink += seq(s); long t1 = System.nanoTime();
            b.append(String.format("seq %.2f", BYTES / (double) (t1 - t0)));
            for (long[] k : blocks) {
                t0 = System.nanoTime(); sink += strips(s, k[0], k[1], I16); t1 = System.nanoTime();
                long t2 = System.nanoTime(); sink += strips(s, k[0], k[1], I8); long t3 = System.nanoTime();
                b.append(String.format(" | %dx%d t16 %.2f t8 %.2f", k[0], k[1], BYTES / (double) (t1 - t0), BYTES / (double) (t3 - t2)));
            }
            System.out.println(b + " GB/s read  " + (sink & 1));
        }
    }
}
