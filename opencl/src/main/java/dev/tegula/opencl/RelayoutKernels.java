package dev.tegula.opencl;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.SlotFormula;
import dev.tegula.ffm.Array;
import dev.tegula.ffm.Completion;
import dev.tegula.ffm.codec.ElementCodec;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Relayout kernels between two arrays of one OpenCL device, generated as OpenCL C from the two
 * layouts' slot math.
 *
 * <p>Work item {@code g} takes the element whose row-major index is {@code g}, splits {@code g} into
 * the multi-index {@code e}, and copies the slot {@code Σ weight·((e[dim] / divisor) mod modulus)}
 * of the source to the same sum of the destination: the digit terms of {@link SlotFormula} for tiled
 * layouts, one term per dimension ({@code offset + Σ e[d]·stride[d]}) for untiled layouts and strided
 * views. That covers transposes, tiles on either side and views. A destination with padding slots
 * (a whole buffer) first gets its layout's padding value in every slot from a fill kernel, then the
 * elements. The dimensions and the terms are kernel arguments (a small read-only buffer per pair of
 * layouts, kept, and the counts), so the program text depends only on the two element types: one
 * program per pair of types, built once per device, serves every pair of layouts.
 *
 * <p>Element types: the same type on both sides (the slot's bits copied), or bf16 or f16 to f32
 * (exact widening by bit operations: NaN payloads and subnormals kept, as
 * {@link ElementCodec#toFloat} decodes them). Other pairs, packed {@code E(n)} slots, and layouts
 * whose tiles do not split their dimensions evenly (no slot formula) have no kernel here
 * ({@link #relayout} returns null and the relayout runs on the host through mappings). Thread-safe.
 */
final class RelayoutKernels {
    private static final int MAX_PAIRS = 256;
    /** The highest rank a relayout kernel serves (its multi-index is a private array of this size). */
    static final int MAX_RANK = 16;
    /**
     * Work items per group: the range is rounded up to a multiple of it (the kernels skip the items
     * past the end), so a driver that compiles a kernel per group size (PoCL does) compiles it once.
     */
    static final long GROUP = 64;
    /**
     * Relayouts of at least this many elements get a program of their own, with the dimensions and
     * terms as constants in the text (the compiler divides by constants and unrolls the terms); smaller
     * ones share the general program of their element types, whose terms are an argument.
     */
    static final long SPECIALISE_FROM = 1 << 16;

    /** A pair of layouts' terms, uploaded once: the buffer of ulongs and the program text. */
    private record Pair(long params, String source, boolean complex) {
    }

    private final Map<String, Pair> pairs = new LinkedHashMap<>(16, 0.75f, true);

    int size() {
        synchronized (pairs) {
            return pairs.size();
        }
    }

    /** The slot math of one side: an element offset plus digit terms (dim, divisor, modulus, weight). */
    private record Side(long offset, List<long[]> terms, int slotBytes) {
    }

    /** {@return the side's slot math, or null where no kernel applies} */
    private static Side side(Array a) {
        ArrayShape s = a.shape();
        long bits = s.slotBits();
        if (bits < 8 || bits % 8 != 0 || Long.bitCount(bits) != 1 || bits > 128) {
            return null;
        }
        int bytes = (int) (bits / 8);
        long byteOffset = a.deviceBuffer().byteOffset();
        if (byteOffset % bytes != 0) {
            return null;
        }
        long offset = byteOffset / bytes;
        List<long[]> terms = new ArrayList<>();
        long[] strides = a.slotStrides();
        if (strides != null) {
            offset += a.slotOffset();
            for (int d = 0; d < strides.length; d++) {
                if (s.dimension(d) > 1) {
                    terms.add(new long[] {d, 1, SlotFormula.UNBOUNDED, strides[d]});
                }
            }
        } else {
            var f = SlotFormula.of(s);
            if (f.isEmpty()) {
                return null;
            }
            for (SlotFormula.Term t : f.get().terms()) {
                terms.add(new long[] {t.dimension(), t.divisor(), t.modulus(), t.weight()});
            }
        }
        return new Side(offset, terms, bytes);
    }

    private static String typeOf(int bytes) {
        return switch (bytes) {
            case 1 -> "uchar";
            case 2 -> "ushort";
            case 4 -> "uint";
            case 8 -> "ulong";
            default -> "ulong2";
        };
    }

    /** {@return the completion of the relayout on the device, or null where no kernel applies} */
    Completion relayout(OpenCLDevice device, Array src, Array dst) {
        ElementType ts = src.shape().elementType();
        ElementType td = dst.shape().elementType();
        String convert;
        if (ts == td) {
            convert = "v";
        } else if (td == ElementType.F32 && ts == ElementType.BF16) {
            convert = "((uint) v) << 16";
        } else if (td == ElementType.F32 && ts == ElementType.F16) {
            convert = "f16_bits_to_f32_bits(v)";
        } else {
            return null;
        }
        Side a = side(src);
        Side b = side(dst);
        if (a == null || b == null || (ts == td && a.slotBytes != b.slotBytes)) {
            return null;
        }
        ArrayShape ds = dst.shape();
        long n = ds.elementCount();
        boolean pad = dst.isDense() && ds.slotCount() != n;
        if (pad && td.isComplex()) {
            return null;
        }
        if (n == 0 && !pad) {
            return Completion.DONE;
        }
        long[] dims = ds.dimensions();
        int rank = dims.length;
        if (rank > MAX_RANK) {
            return null;
        }
        String key = src.shape() + Arrays.toString(src.slotStrides()) + "->" + ds + Arrays.toString(dst.slotStrides())
                + (pad ? " pad" : "");
        Pair pair;
        synchronized (pairs) {
            pair = pairs.get(key);
            if (pair == null) {
                boolean f16 = td == ElementType.F32 && ts == ElementType.F16;
                String header = header(typeOf(a.slotBytes), typeOf(b.slotBytes), f16);
                if (n >= SPECIALISE_FROM) {
                    long slots = Math.max(n, Math.max(src.deviceBuffer().byteSize() / a.slotBytes + a.offset,
                            dst.deviceBuffer().byteSize() / b.slotBytes + b.offset));
                    pair = new Pair(0, header + specialised(dims, a.terms, b.terms, convert, n,
                            slots < 0xFFFF_FFFFL - GROUP), td.isComplex());
                } else {
                    long[] params = params(dims, a.terms, b.terms);
                    long buffer;
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment host = arena.allocateFrom(ValueLayout.JAVA_LONG, params);
                        buffer = CL.createBuffer(device.context, CL.CL_MEM_READ_ONLY | CL.CL_MEM_COPY_HOST_PTR,
                                host.byteSize(), host);
                    }
                    pair = new Pair(buffer, header + general(convert), td.isComplex());
                }
                pairs.put(key, pair);
                if (pairs.size() > MAX_PAIRS) {      // an enqueued kernel keeps its buffer until it has run
                    var eldest = pairs.entrySet().iterator();
                    long params = eldest.next().getValue().params;
                    if (params != 0) {
                        CL.releaseMem(params);
                    }
                    eldest.remove();
                }
            }
        }
        long srcMem = src.deviceBuffer().handle();
        long dstMem = dst.deviceBuffer().handle();
        if (pad) {
            Kernel fill = device.kernel(pair.source, "pad");
            long code = ElementCodec.paddingCode(td, ds.layout().paddingValue());
            synchronized (fill) {
                CL.setKernelArgMem(fill.handle(), 0, dstMem);
                CL.setKernelArgLong(fill.handle(), 1, b.offset);
                CL.setKernelArgLong(fill.handle(), 2, code);
                CL.setKernelArgLong(fill.handle(), 3, ds.slotCount());
                // the queue is in order: the relayout below runs after the fill, so its event is not kept
                CL.releaseEvent(CL.enqueueKernel(device.queue, fill.handle(), roundUp(ds.slotCount()), GROUP, "pad"));
            }
        }
        if (n == 0) {
            return () -> device.finish();
        }
        if (pair.params == 0) {
            Kernel k = device.kernel(pair.source, "relayout_fixed");
            synchronized (k) {
                CL.setKernelArgMem(k.handle(), 0, srcMem);
                CL.setKernelArgLong(k.handle(), 1, a.offset);
                CL.setKernelArgMem(k.handle(), 2, dstMem);
                CL.setKernelArgLong(k.handle(), 3, b.offset);
                long ev = CL.enqueueKernel(device.queue, k.handle(), roundUp(n / chunk(dims)), GROUP, "relayout_fixed");
                return new EventCompletion(ev, "the relayout of " + src.shape() + " into " + ds, null);
            }
        }
        Kernel k = device.kernel(pair.source, "relayout");
        synchronized (k) {
            CL.setKernelArgMem(k.handle(), 0, srcMem);
            CL.setKernelArgLong(k.handle(), 1, a.offset);
            CL.setKernelArgMem(k.handle(), 2, dstMem);
            CL.setKernelArgLong(k.handle(), 3, b.offset);
            CL.setKernelArgMem(k.handle(), 4, pair.params);
            CL.setKernelArgInt(k.handle(), 5, rank);
            CL.setKernelArgInt(k.handle(), 6, a.terms.size());
            CL.setKernelArgInt(k.handle(), 7, b.terms.size());
            CL.setKernelArgLong(k.handle(), 8, n);
            long ev = CL.enqueueKernel(device.queue, k.handle(), roundUp(n), GROUP, "relayout");
            return new EventCompletion(ev, "the relayout of " + src.shape() + " into " + ds, null);
        }
    }

    private static long roundUp(long n) {
        return Math.ceilDiv(n, GROUP) * GROUP;
    }

    /** The kernel arguments: per dimension (row-major stride, size), then each side's terms (dim, divisor, modulus, weight). */
    private static long[] params(long[] dims, List<long[]> src, List<long[]> dst) {
        int rank = dims.length;
        long[] p = new long[Math.max(1, 2 * rank + 4 * (src.size() + dst.size()))];
        long stride = 1;
        for (int d = rank - 1; d >= 0; d--) {
            p[2 * d] = stride;
            p[2 * d + 1] = dims[d];
            stride *= dims[d];
        }
        int k = 2 * rank;
        for (long[] t : src) {
            System.arraycopy(t, 0, p, k, 4);
            k += 4;
        }
        for (long[] t : dst) {
            System.arraycopy(t, 0, p, k, 4);
            k += 4;
        }
        return p;
    }

    /** The start of every program: the element types, and the f16 widening where it is used. */
    static String header(String srcType, String dstType, boolean f16) {
        StringBuilder sb = new StringBuilder();
        sb.append("// Tegula relayout: ").append(srcType).append(" -> ").append(dstType).append('\n');
        sb.append("#define MAX_RANK ").append(MAX_RANK).append('\n');
        sb.append("typedef ").append(srcType).append(" src_t;\n");
        sb.append("typedef ").append(dstType).append(" dst_t;\n");
        if (f16) {
            sb.append("""
                    uint f16_bits_to_f32_bits(ushort h) {
                        uint sign = ((uint) (h & 0x8000)) << 16;
                        uint e = (h >> 10) & 0x1f;
                        uint m = h & 0x3ff;
                        if (e == 0x1f) return sign | 0x7f800000u | (m << 13);
                        if (e != 0) return sign | ((e + 112) << 23) | (m << 13);
                        if (m == 0) return sign;
                        e = 113;
                        while ((m & 0x400) == 0) { m <<= 1; e--; }
                        return sign | (e << 23) | ((m & 0x3ff) << 13);
                    }
                    """);
        }
        sb.append("""
                // every slot of a destination with padding gets the padding value first
                __kernel void pad(__global dst_t* dst, ulong dst_offset, ulong code, ulong n) {
                    ulong g = get_global_id(0);
                    if (g < n) dst[dst_offset + g] = (dst_t) code;
                }

                """);
        return sb.toString();
    }

    /** The general relayout between two element types: the dimensions and the terms are an argument. */
    static String general(String convert) {
        StringBuilder sb = new StringBuilder();
        sb.append("""
                // the slot of multi-index e: the sum of weight * ((e[dim] / divisor) mod modulus) over the terms
                ulong slot_of(__constant const ulong* t, int count, const ulong* e) {
                    ulong s = 0;
                    for (int j = 0; j < count; j++) {
                        ulong v = e[t[4 * j]] / t[4 * j + 1];
                        if (t[4 * j + 2] != 0) v %%= t[4 * j + 2];
                        s += v * t[4 * j + 3];
                    }
                    return s;
                }

                // work item g moves the element whose row-major index is g; p holds, per dimension, its
                // row-major stride and size, then the source's terms, then the destination's
                __kernel void relayout(__global const src_t* src, ulong src_offset, __global dst_t* dst,
                                       ulong dst_offset, __constant const ulong* p, int rank, int src_terms,
                                       int dst_terms, ulong n) {
                    ulong g = get_global_id(0);
                    if (g >= n) return;
                    ulong e[MAX_RANK];
                    e[0] = 0;
                    for (int d = 0; d < rank; d++) e[d] = (g / p[2 * d]) %% p[2 * d + 1];
                    ulong s = src_offset + slot_of(p + 2 * rank, src_terms, e);
                    ulong t = dst_offset + slot_of(p + 2 * rank + 4 * src_terms, dst_terms, e);
                    src_t v = src[s];
                    dst[t] = %s;
                }
                """.formatted(convert));
        return sb.toString();
    }

    /**
     * Elements along the innermost dimension that one work item of a program of its own pair moves:
     * the largest power of two up to {@value #MAX_CHUNK} that divides the innermost dimension, so the
     * multi-index is split once per chunk and the chunk's slots follow from it by constant steps the
     * compiler folds.
     */
    static int chunk(long[] dims) {
        long inner = dims.length == 0 ? 1 : dims[dims.length - 1];
        int k = MAX_CHUNK;
        while (k > 1 && inner % k != 0) {
            k >>= 1;
        }
        return k;
    }

    /** The most elements one work item of a program of its own pair moves. */
    static final int MAX_CHUNK = 16;

    /**
     * The relayout of one pair of layouts, its dimensions and terms written into the text: index
     * arithmetic in {@code uint} where every slot index fits ({@code narrow}), else in {@code ulong}.
     * Work item {@code g} moves the {@link #chunk} elements from row-major index {@code g·chunk} on.
     */
    static String specialised(long[] dims, List<long[]> src, List<long[]> dst, String convert, long n, boolean narrow) {
        String t = narrow ? "uint" : "ulong";
        String u = narrow ? "u" : "UL";
        int k = chunk(dims);
        int rank = dims.length;
        int last = rank - 1;
        StringBuilder sb = new StringBuilder();
        sb.append("__kernel void relayout_fixed(__global const src_t* src, ulong src_offset, __global dst_t* dst,\n")
                .append("                             ulong dst_offset) {\n");
        sb.append("    ").append(t).append(" w = (").append(t).append(") get_global_id(0);\n");
        sb.append("    if (w >= ").append(n / k).append(u).append(") return;\n");
        // work item w: the multi-index of its chunk's first element, the innermost dimension counted in chunks
        long stride = 1;
        long[] strides = new long[rank];
        for (int d = last; d >= 0; d--) {
            strides[d] = stride;
            stride *= d == last ? dims[d] / k : dims[d];
        }
        for (int d = 0; d < rank; d++) {
            String e = strides[d] == 1 ? "w" : "(w / " + strides[d] + u + ")";
            if (d > 0) {
                e = "(" + e + " % " + (d == last ? dims[d] / k : dims[d]) + u + ")";
            }
            if (d == last) {
                sb.append("    ").append(t).append(" first = ").append(e).append(" * ").append(k).append(u).append(";\n");
            } else {
                sb.append("    ").append(t).append(" e").append(d).append(" = ").append(e).append(";\n");
            }
        }
        if (rank > 0) {
            sb.append("    #pragma unroll\n");
            sb.append("    for (").append(t).append(" e").append(last).append(" = first; e").append(last)
                    .append(" < first + ").append(k).append(u).append("; e").append(last).append("++) {\n");
        } else {
            sb.append("    {\n");
        }
        sb.append("        ulong s = src_offset + (ulong) (").append(sum(src, u)).append(");\n");
        sb.append("        ulong t = dst_offset + (ulong) (").append(sum(dst, u)).append(");\n");
        sb.append("        src_t v = src[s];\n");
        sb.append("        dst[t] = ").append(convert).append(";\n");
        sb.append("    }\n");
        sb.append("}\n");
        return sb.toString();
    }

    private static String sum(List<long[]> terms, String u) {
        if (terms.isEmpty()) {
            return "0" + u;
        }
        StringBuilder sb = new StringBuilder();
        for (long[] term : terms) {
            if (!sb.isEmpty()) {
                sb.append(" + ");
            }
            String v = "e" + term[0];
            if (term[1] != 1) {
                v = "(" + v + " / " + term[1] + u + ")";
            }
            if (term[2] != SlotFormula.UNBOUNDED) {
                v = "(" + v + " % " + term[2] + u + ")";
            }
            sb.append(v).append(" * ").append(term[3]).append(u);
        }
        return sb.toString();
    }
}
