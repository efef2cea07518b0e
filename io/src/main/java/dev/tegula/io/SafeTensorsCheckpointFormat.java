package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.ffm.Array;
import dev.tegula.io.internal.HeaderText;
import dev.tegula.io.safetensors.SafeTensors;
import dev.tegula.io.safetensors.SafeTensorsCheckpoint;
import dev.tegula.io.safetensors.SafeTensorsIndex;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;

/**
 * A Hugging Face checkpoint directory ({@link TensorFormat#SAFETENSORS_CHECKPOINT}), read through
 * {@link SafeTensorsCheckpoint}: safetensors shards and the {@code *.safetensors.index.json} that
 * lists them, or one {@code model.safetensors}, beside the files that describe the model.
 * Recognised as a directory holding a {@code *.safetensors.index.json} or {@code *.safetensors}
 * file, or by the name of an index file.
 *
 * <p>Convert reads every shard (each tensor mapped, in the shape its shard's metadata records for
 * it) and writes a checkpoint directory from a checkpoint: each shard under its own name with the
 * tensors it had that are written (as {@link SafeTensorsFormat} writes them, with the shard's
 * {@code __metadata__}), a shard left with none not at all, the index under its own name with the
 * weight map of the tensors written (in its order) and {@code metadata.total_size} (and
 * {@code total_parameters}, where the index has it) counted again, and every
 * {@link SafeTensorsCheckpoint#otherFiles() other file} copied unchanged, but for one edit: when
 * the conversion changes a tensor's type and every floating-point tensor written has one type, the
 * {@code torch_dtype} and {@code dtype} values of {@code config.json} that name a floating type
 * ({@code "float32"}, {@code "bfloat16"}, ...) name that type (its other bytes kept as they were),
 * so that loaders which take the model's type from the config load the new one.
 */
public final class SafeTensorsCheckpointFormat extends TensorFormat {
    SafeTensorsCheckpointFormat() {
        super("safetensors-checkpoint", false, true);
    }

    /** {@return true if the directory holds a {@code *.safetensors} or {@code *.safetensors.index.json} file (false if it cannot be listed)} */
    static boolean holdsOne(Path dir) {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            for (Path p : s) {
                String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
                if ((n.endsWith(".safetensors") || n.endsWith(SafeTensorsCheckpoint.INDEX_SUFFIX)) && Files.isRegularFile(p)) {
                    return true;
                }
            }
            return false;
        } catch (IOException e) {
            return false;   // the directory's reader reports the problem
        }
    }

    @Override
    TensorSource open(Path path, ArrayShape rawShape, Arena arena) throws IOException {
        SafeTensorsCheckpoint c = SafeTensorsCheckpoint.open(path);
        List<TensorSource.Named> out = new ArrayList<>();
        Map<String, String> metadata = null;
        for (String shard : c.shards().keySet()) {
            Path p = c.directory().resolve(shard);
            var file = SafeTensors.open(p, arena);
            if (metadata == null) {
                metadata = SafeTensorsFormat.plainMetadata(file.header());
            }
            out.addAll(SafeTensorsFormat.tensors(p, file, shard));
        }
        return new TensorSource(this, out, metadata, c);
    }

    /** {@return tensor {@code name} of the checkpoint at {@code path}, from its shard, as {@link SafeTensorsFormat#tensor} reads it} */
    static Array tensor(Path path, String name, Arena arena) throws IOException {
        SafeTensorsCheckpoint c = SafeTensorsCheckpoint.open(path);
        String shard = c.shardOf(name);
        if (shard == null) {
            throw new TensorFormatException(path + ": no tensor '" + HeaderText.shorten(name) + "' in the checkpoint's "
                    + c.tensorCount() + " tensors");
        }
        return SafeTensorsFormat.tensor(c.directory().resolve(shard), name, arena);
    }

    @Override
    ArrayShape stored(String name, ArrayShape to) {
        return SAFETENSORS.stored(name, to);
    }

    @Override
    List<OutputFile> plan(Path dir, List<OutputFile.Planned> tensors, TensorSource source) {
        SafeTensorsCheckpoint c = source.checkpoint();
        if (c == null) {
            throw new IllegalArgumentException("target: convert writes a checkpoint directory from a checkpoint only");
        }
        SequencedMap<String, List<OutputFile.Planned>> byShard = new LinkedHashMap<>();
        for (String shard : c.shards().keySet()) {
            byShard.put(shard, new ArrayList<>());
        }
        Map<String, String> shardOf = new LinkedHashMap<>();
        for (OutputFile.Planned t : tensors) {
            byShard.get(t.source().shard()).add(t);
            shardOf.put(t.name(), t.source().shard());
        }
        List<OutputFile> out = new ArrayList<>();
        long bytes = 0;
        long elements = 0;
        for (Map.Entry<String, List<OutputFile.Planned>> e : byShard.entrySet()) {
            if (e.getValue().isEmpty()) {
                continue;
            }
            Map<String, String> metadata = SafeTensorsFormat.plainMetadata(c.shards().get(e.getKey()));
            OutputFile f = SafeTensorsFormat.file(dir.resolve(e.getKey()), e.getValue(), metadata);
            bytes = Math.addExact(bytes, f.dataBytes());
            for (OutputFile.Planned t : e.getValue()) {
                elements = Math.addExact(elements, t.to().elementCount());
            }
            out.add(f);
        }
        SafeTensorsIndex index = c.index();
        if (index != null) {
            SequencedMap<String, String> weightMap = new LinkedHashMap<>();
            for (String name : index.weightMap().keySet()) {
                if (shardOf.containsKey(name)) {
                    weightMap.put(name, shardOf.get(name));
                }
            }
            Map<String, String> metadata = new LinkedHashMap<>(index.metadata());
            if (metadata.containsKey(SafeTensorsIndex.TOTAL_PARAMETERS)) {
                metadata.put(SafeTensorsIndex.TOTAL_PARAMETERS, Long.toString(elements));
            }
            metadata.put(SafeTensorsIndex.TOTAL_SIZE, Long.toString(bytes));
            byte[] text = new SafeTensorsIndex(metadata, weightMap).toBytes();
            out.add(new OutputFile(dir.resolve(c.indexFile().getFileName().toString()), text, List.of()));
        }
        return out;
    }

    @Override
    boolean claims(String fileName) {
        return fileName.endsWith(SafeTensorsCheckpoint.INDEX_SUFFIX);
    }

    @Override
    boolean startsLike(byte[] head) {
        return false;
    }
}
