package dev.tegula.example.jlama;

import com.github.tjake.jlama.model.DistributedContext;
import com.github.tjake.jlama.safetensors.DType;
import com.github.tjake.jlama.safetensors.TensorInfo;
import com.github.tjake.jlama.safetensors.WeightLoader;
import com.github.tjake.jlama.tensor.AbstractTensor;
import com.github.tjake.jlama.tensor.BFloat16BufferTensor;
import com.github.tjake.jlama.tensor.Float16BufferTensor;
import com.github.tjake.jlama.tensor.FloatBufferTensor;
import com.github.tjake.jlama.tensor.TensorShape;
import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.TensorFiles;
import dev.tegula.io.safetensors.SafeTensorsHeader;
import dev.tegula.io.safetensors.SafeTensorsCheckpoint;
import dev.tegula.vector.Relayout;
import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.NoSuchElementException;

/**
 * A Jlama {@link WeightLoader} that reads a checkpoint through Tegula: any layout Tegula wrote
 * (tiled ones included, which Jlama's own loader refuses: they are stored as {@code U8} bytes with
 * the shape in the metadata) is read and relayouted to the row-major layout Jlama computes on;
 * row-major tensors are handed over mapped, with no copy. f32, f16 and bf16 tensors.
 *
 * <p><b>Lifetime.</b> Jlama's tensors point into memory of this loader's arena (the file mappings
 * and the relayouted copies): close the loader only after the model is no longer used. The arena is
 * shared, as Jlama computes on several threads.
 */
final class TegulaWeightLoader implements WeightLoader {
    private final Arena arena = Arena.ofShared();
    /** Every tensor as the checkpoint holds it, mapped (a tiled one in its tiled layout). */
    private final Map<String, Array> stored = new LinkedHashMap<>();
    private final Map<String, TensorInfo> infos = new LinkedHashMap<>();
    private final DType modelType;

    TegulaWeightLoader(File directory) {
        try {
            SafeTensorsCheckpoint checkpoint = SafeTensorsCheckpoint.open(directory.toPath());
            DType first = null;
            for (SafeTensorsHeader shard : checkpoint.shards().values()) {
                for (SafeTensorsHeader.Entry e : shard.tensors()) {
                    // the shape Tegula recorded (tegula.shape.NAME), not the U8 bytes the file declares
                    Array a = TensorFiles.read(checkpoint.directory(), e.name(), arena);
                    DType t = jlamaType(a.shape().elementType(), e.name());
                    first = first == null ? t : first;
                    stored.put(e.name(), a);
                    infos.put(e.name(), new TensorInfo(t, a.shape().dimensions(), new long[] {0, a.shape().byteSize()}));
                }
            }
            this.modelType = first;
        } catch (IOException | RuntimeException e) {
            arena.close();
            throw e instanceof IOException io ? new UncheckedIOException(io) : (RuntimeException) e;
        }
    }

    private static DType jlamaType(ElementType type, String name) {
        return switch (type) {
            case F32 -> DType.F32;
            case F16 -> DType.F16;
            case BF16 -> DType.BF16;
            default -> throw new IllegalArgumentException("tensor '" + name + "': " + type.hloName()
                    + ", which this loader does not give Jlama");
        };
    }

    @Override
    public Map<String, String> metadata() {
        return Map.of();
    }

    @Override
    public Map<String, TensorInfo> tensorInfoMap() {
        return infos;
    }

    @Override
    public AbstractTensor load(String name, DistributedContext dctx, boolean sparseRows, boolean sparseColumns) {
        if (!stored.containsKey(name)) {
            throw new NoSuchElementException(name);
        }
        if (dctx != null && dctx.hasModelShard()) {
            throw new UnsupportedOperationException("tensor '" + name + "': this loader does not split tensors across nodes");
        }
        Array a = stored.get(name);
        Layout rowMajor = Layout.rowMajor(a.shape().rank());
        if (!a.isDenseIn(rowMajor)) {
            a = Relayout.to(a, rowMajor, arena);   // tiled (or any other layout) to the row-major Jlama reads
        }
        // Jlama's tensors take a direct little-endian buffer over the elements, nothing between them
        ByteBuffer bytes = a.segment().asSlice(0, a.shape().bufferSize()).asByteBuffer().order(ByteOrder.LITTLE_ENDIAN);
        int[] dims = new int[a.shape().rank()];
        for (int d = 0; d < dims.length; d++) {
            dims[d] = Math.toIntExact(a.shape().dimensions()[d]);
        }
        TensorShape shape = TensorShape.of(dims);
        return switch (infos.get(name).dType) {
            case F32 -> new FloatBufferTensor(name, bytes.asFloatBuffer(), shape, true);
            case F16 -> new Float16BufferTensor(name, bytes.asShortBuffer(), shape, true);
            case BF16 -> new BFloat16BufferTensor(name, bytes.asShortBuffer(), shape, true);
            default -> throw new IllegalStateException(name);
        };
    }

    @Override
    public DType getModelDType() {
        return modelType;
    }

    @Override
    public void close() {
        arena.close();
    }
}
