package dev.tegula.vector;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The argument checks of the relayout engine, shared by {@link Relayout}, {@link RelayoutPlan} and
 * {@link PlanCache}: each throws the exception the public contract names, with the field and its
 * value. Stateless and thread-safe; depends on nothing else in this package.
 */
final class RelayoutChecks {
    private RelayoutChecks() {
    }

    /**
     * Checks that a relayout between these shapes is defined.
     *
     * @throws IllegalArgumentException if the dimensions differ, complex meets real, or a dimension
     *                                  is unbounded
     */
    static void checkCompatible(ArrayShape from, ArrayShape to) {
        if (!Arrays.equals(from.dimensions(), to.dimensions())) {
            throw new IllegalArgumentException("dimensions: source " + from.toStringWithoutLayout()
                    + " and destination " + to.toStringWithoutLayout() + " differ");
        }
        if (from.elementType().isComplex() != to.elementType().isComplex()) {
            throw new IllegalArgumentException("elementType: cannot convert " + from.elementType() + " to "
                    + to.elementType() + " (complex and real)");
        }
        if (!from.isStaticOrBounded() || !to.isStaticOrBounded()) {
            throw new IllegalArgumentException("dimensions: unbounded dynamic dimensions cannot be relayouted");
        }
    }

    /**
     * Checks that both arrays are in host memory and the destination is writable.
     *
     * @throws IllegalStateException         if an array is not host-addressable
     * @throws UnsupportedOperationException if {@code dst} is read-only
     */
    static void checkArrays(Array src, Array dst) {
        if (!src.isHostAccessible()) {
            throw new IllegalStateException("src: memory space S(" + src.shape().layout().memorySpace()
                    + ") is not host-addressable; copy it to host memory through its provider first");
        }
        if (!dst.isHostAccessible()) {
            throw new IllegalStateException("dst: memory space S(" + dst.shape().layout().memorySpace()
                    + ") is not host-addressable");
        }
        if (dst.isReadOnly()) {
            throw new UnsupportedOperationException("dst: the destination array is read-only");
        }
    }

    /**
     * Checks that a destination buffer shares no byte with a source buffer: both dense, the first
     * {@code srcBytes} and {@code dstBytes} bytes of their segments.
     *
     * @throws IllegalArgumentException if the two byte ranges lie in the same memory and overlap
     */
    static void checkNoOverlap(MemorySegment src, long srcBytes, MemorySegment dst, long dstBytes) {
        MemorySegment a = src.asSlice(0, srcBytes);
        MemorySegment b = dst.asSlice(0, dstBytes);
        if (alive(a, b) && a.asOverlappingSlice(b).isPresent()) {
            throw overlap("bytes [0, " + srcBytes + ") of the source and [0, " + dstBytes + ") of the destination are"
                    + " the same memory, the destination starting " + (b.address() - a.address()) + " bytes after the"
                    + " source's start");
        }
    }

    /**
     * Checks that no byte of a destination element is a byte of a source element: arrays over
     * separate memory always pass; views of one buffer pass where their elements are disjoint (two
     * halves, interleaved columns). Spans that do not overlap take two comparisons; spans that do
     * are decided element by element, over the view with fewer elements.
     *
     * @throws IllegalArgumentException if a byte is both read and written, or, for strided views
     *                                  whose strides do not give each slot one index, may be
     */
    static void checkNoOverlap(Array src, Array dst) {
        MemorySegment a = src.byteSpan();
        MemorySegment b = dst.byteSpan();
        if (!alive(a, b) || a.asOverlappingSlice(b).isEmpty()) {
            return;
        }
        // addresses of segments over the same memory compare: native addresses, or offsets in one Java array
        Side s = Side.of(src, 0);
        Side d = Side.of(dst, dst.segment().address() - src.segment().address());
        if (s.strides == null && d.strides == null) {
            throw overlap("the source's and the destination's buffers share memory, from byte "
                    + Math.max(s.lo, d.lo) + " of the source's segment");
        }
        // walk a strided side's elements, asking whether the other side touches their bytes
        Side walked;
        Side other;
        if (s.strides == null || d.strides == null) {
            walked = s.strides == null ? d : s;
            other = walked == s ? d : s;
        } else {
            boolean sFewer = src.shape().elementCount() <= dst.shape().elementCount();
            walked = sFewer ? s : d;
            other = sFewer ? d : s;
            if (!other.nested()) {
                Side t = walked;
                walked = other;
                other = t;
            }
            if (!other.nested()) {
                throw overlap("the source's and the destination's elements lie in overlapping spans of the same"
                        + " memory, and neither view's strides (" + Arrays.toString(s.strides) + ", "
                        + Arrays.toString(d.strides) + ") give each slot one index, so they may share bytes");
            }
        }
        long shared = walked.firstShared(other);
        if (shared >= 0) {
            throw overlap("byte " + shared + " of the source's segment is in a source element and in a destination"
                    + " element");
        }
    }

    /**
     * {@return true if both segments' arenas are open} The memory of a closed arena may be handed out
     * again, to the other segment even: its address says nothing, and the access that follows throws
     * the closed arena's {@link IllegalStateException}.
     */
    private static boolean alive(MemorySegment a, MemorySegment b) {
        return a.scope().isAlive() && b.scope().isAlive();
    }

    private static IllegalArgumentException overlap(String where) {
        return new IllegalArgumentException("dst: the destination overlaps the source in memory (" + where + "); a"
                + " relayout reads the source while it writes the destination, so the result would be corrupt:"
                + " relayout into separate memory, or copy the source first");
    }

    /**
     * One side of a relayout in the source segment's byte frame: a dense buffer {@code [lo, hi)}, or a
     * strided view's slots ({@code strides} not null).
     */
    private static final class Side {
        final long frame;
        final long bits;
        final long offset;
        final long[] dims;
        final long[] strides;
        final long lo;
        final long hi;

        private Side(long frame, long bits, long offset, long[] dims, long[] strides, long lo, long hi) {
            this.frame = frame;
            this.bits = bits;
            this.offset = offset;
            this.dims = dims;
            this.strides = strides;
            this.lo = lo;
            this.hi = hi;
        }

        /** {@code a} whose segment starts at byte {@code frame} of the source's segment. */
        static Side of(Array a, long frame) {
            long bits = a.shape().slotBits();
            long[] strides = a.isDense() ? null : a.slotStrides();
            long lo = frame + a.byteSpan().address() - a.segment().address();
            return new Side(frame, bits, a.slotOffset(), a.shape().dimensions(), strides, lo,
                    lo + a.byteSpan().byteSize());
        }

        /** {@return true if every slot of this strided view is reached from at most one index (its strides nest)} */
        boolean nested() {
            Integer[] order = order();
            long reach = 0;
            for (int k = order.length - 1; k >= 0; k--) {
                int dim = order[k];
                if (strides[dim] <= reach) {
                    return false;
                }
                reach = Math.addExact(reach, Math.multiplyExact(strides[dim], dims[dim] - 1));
            }
            return true;
        }

        /** The dimensions that move: size above 1, by decreasing stride. */
        private Integer[] order() {
            return java.util.stream.IntStream.range(0, dims.length).filter(d -> dims[d] > 1).boxed()
                    .sorted((x, y) -> Long.compare(strides[y], strides[x])).toArray(Integer[]::new);
        }

        /** {@return true if slot {@code t} of this side's segment is one of its elements' (a nested strided view)} */
        boolean holds(long t, Integer[] order) {
            long r = t - offset;
            if (r < 0) {
                return false;
            }
            for (int dim : order) {
                long i = r / strides[dim];
                if (i >= dims[dim]) {
                    return false;
                }
                r -= i * strides[dim];
            }
            return r == 0;
        }

        /** {@return true if this side touches a byte of {@code [from, to)} (source frame)} */
        boolean touches(long from, long to, Integer[] order) {
            if (strides == null) {
                return from < hi && lo < to;
            }
            long a = from - frame;
            long z = to - frame;
            long first = bits >= 8 ? Math.floorDiv(a, bits / 8) : Math.floorDiv(a * 8, bits);
            long last = bits >= 8 ? Math.floorDiv(z - 1, bits / 8) : Math.floorDiv(z * 8 - 1, bits);
            for (long t = Math.max(first, 0); t <= last; t++) {
                if (holds(t, order)) {
                    return true;
                }
            }
            return false;
        }

        /** {@return the first byte (source frame) of an element of this strided side that {@code other} touches, or -1} */
        long firstShared(Side other) {
            for (long n : dims) {
                if (n == 0) {
                    return -1;
                }
            }
            Integer[] otherOrder = other.strides == null ? null : other.order();
            long[] idx = new long[dims.length];
            while (true) {
                long slot = offset;
                for (int d = 0; d < dims.length; d++) {
                    slot += idx[d] * strides[d];
                }
                long from = frame + Math.floorDiv(slot * bits, 8);
                long to = frame + Math.ceilDiv((slot + 1) * bits, 8);
                if (other.touches(from, to, otherOrder)) {
                    return from;
                }
                int d = dims.length - 1;
                while (d >= 0 && ++idx[d] == dims[d]) {
                    idx[d] = 0;
                    d--;
                }
                if (d < 0) {
                    return -1;
                }
            }
        }
    }

    /** @throws IllegalArgumentException if {@code seg} has fewer than {@code need} bytes */
    static void checkSize(String name, MemorySegment seg, long need) {
        if (seg.byteSize() < need) {
            throw new IllegalArgumentException(name + ": segment has " + seg.byteSize() + " bytes, the layout needs "
                    + need);
        }
    }
}
