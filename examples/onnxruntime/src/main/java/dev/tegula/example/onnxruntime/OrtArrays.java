package dev.tegula.example.onnxruntime;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The bridge between Tegula arrays and ONNX Runtime tensors: copy these few methods into a project.
 *
 * <p><b>No copy in.</b> ONNX Runtime takes a direct buffer as it is (it keeps a reference, reads and
 * writes the memory in place) when the buffer is in native byte order and holds the elements in
 * row-major (C) order with nothing between them. {@link #tensor} checks exactly that with
 * {@link Array#isDenseIn} and wraps {@link Array#segment()} in such a buffer. Any other array (a
 * tiled or column-major one, a strided view) is refused: relayout it first
 * ({@code Relayout.to(array, Layout.rowMajor(rank), arena)}, module vector).
 *
 * <p><b>Lifetime.</b> The tensor points into the array's memory, which its {@link Arena} owns. Close
 * every {@link OnnxTensor} (and the session results holding them) before that arena closes: a run
 * on a tensor whose arena is closed reads freed memory, and the JVM crashes in
 * {@code libonnxruntime.so}. Open the arena first in the same try-with-resources statement (resources
 * close in reverse order), or use {@code Arena.ofAuto()} and keep the array reachable as long as the
 * tensor is used.
 */
final class OrtArrays {
    private OrtArrays() {
    }

    /**
     * {@return an ONNX Runtime tensor over {@code array}'s memory, no copy made} ONNX Runtime sees
     * writes to the array (and, for a file mapping, to the file) on its next run, and writes to the
     * tensor (a pinned output) land in the array.
     *
     * @throws IllegalArgumentException if the array is not dense and row-major, or of a type this bridge does not map
     */
    static OnnxTensor tensor(OrtEnvironment env, Array array) throws OrtException {
        ArrayShape shape = array.shape();
        if (!array.isDenseIn(Layout.rowMajor(shape.rank()))) {
            throw new IllegalArgumentException("array: " + shape + " is not dense row-major, which ONNX Runtime"
                    + " needs: relayout it first (Relayout.to(array, Layout.rowMajor(" + shape.rank() + "), arena))");
        }
        ByteBuffer bytes = array.segment().asSlice(0, shape.bufferSize()).asByteBuffer().order(ByteOrder.nativeOrder());
        long[] dims = shape.dimensions();
        return switch (shape.elementType()) {
            case F32 -> OnnxTensor.createTensor(env, bytes.asFloatBuffer(), dims);
            case F64 -> OnnxTensor.createTensor(env, bytes.asDoubleBuffer(), dims);
            case F16 -> OnnxTensor.createTensor(env, bytes, dims, OnnxJavaType.FLOAT16);
            case BF16 -> OnnxTensor.createTensor(env, bytes, dims, OnnxJavaType.BFLOAT16);
            case S8 -> OnnxTensor.createTensor(env, bytes, dims, OnnxJavaType.INT8);
            case U8 -> OnnxTensor.createTensor(env, bytes, dims, OnnxJavaType.UINT8);
            case S16 -> OnnxTensor.createTensor(env, bytes.asShortBuffer(), dims);
            case S32 -> OnnxTensor.createTensor(env, bytes.asIntBuffer(), dims);
            case S64 -> OnnxTensor.createTensor(env, bytes.asLongBuffer(), dims);
            default -> throw new IllegalArgumentException("array: " + shape.elementType().hloName()
                    + " has no ONNX Runtime Java type in this bridge");
        };
    }

    /**
     * {@return a new row-major array from {@code arena} holding the elements of {@code tensor}, an
     * output ONNX Runtime allocated} ONNX Runtime's Java API hands such an output out only as a copy
     * ({@link OnnxTensor#getByteBuffer()}); this copies that into Tegula memory once more. To have
     * ONNX Runtime write straight into a Tegula array, pass {@link #tensor} of it as a pinned output.
     */
    static Array toArray(OnnxTensor tensor, ElementType type, Arena arena) {
        long[] dims = tensor.getInfo().getShape();
        Array out = Array.allocate(arena, ArrayShape.of(type, dims));
        ByteBuffer bytes = tensor.getByteBuffer();
        if (bytes.remaining() != out.segment().byteSize()) {
            throw new IllegalArgumentException("tensor: " + bytes.remaining() + " bytes, but " + out.shape() + " takes "
                    + out.segment().byteSize());
        }
        MemorySegment.copy(MemorySegment.ofBuffer(bytes), 0, out.segment(), 0, bytes.remaining());
        return out;
    }
}
