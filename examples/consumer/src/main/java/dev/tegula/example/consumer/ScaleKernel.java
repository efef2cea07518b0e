package dev.tegula.example.consumer;

import dev.tegula.ffm.Array;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import jdk.incubator.vector.FloatVector;
import jdk.incubator.vector.VectorSpecies;

/**
 * A Vector API kernel of the program's own over Tegula memory: {@code out = x * a + b}, element by
 * element, over the segments of two dense f32 arrays of one layout. It needs
 * {@code requires jdk.incubator.vector} in the program's {@code module-info.java}: Tegula's
 * modules do not pass the Vector API on.
 */
final class ScaleKernel {
    private static final VectorSpecies<Float> SPECIES = FloatVector.SPECIES_PREFERRED;

    private ScaleKernel() {
    }

    /** Writes {@code x * a + b} into {@code out}: whole vectors first, then the tail element by element. */
    static void scale(Array x, float a, float b, Array out) {
        MemorySegment xs = x.segment();
        MemorySegment os = out.segment();
        long n = x.shape().elementCount();
        long step = SPECIES.length();
        long whole = n - n % step;
        long i = 0;
        for (; i < whole; i += step) {
            FloatVector v = FloatVector.fromMemorySegment(SPECIES, xs, i * Float.BYTES, ByteOrder.nativeOrder());
            v.mul(a).add(b).intoMemorySegment(os, i * Float.BYTES, ByteOrder.nativeOrder());
        }
        for (; i < n; i++) {
            os.setAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i,
                    xs.getAtIndex(java.lang.foreign.ValueLayout.JAVA_FLOAT, i) * a + b);
        }
    }
}
