package dev.tegula.io;

import dev.tegula.ffm.Array;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link TensorFiles#load} read: the new arrays by tensor name, in the input's order, and the
 * tensors it left out.
 *
 * @param tensors     each tensor the rules selected, as a new array of the shape the rules gave it
 *                    (host or device memory, as its layout's memory space says), in file order; the
 *                    map is unmodifiable and the arrays live as long as the arena they were loaded into
 * @param skipped     the tensors {@link ConvertOptions#skipUnsupported()} left out, and why
 * @param unusedRules each rule that decided nothing, as {@link ConvertReport#unusedRules()} says it
 */
public record LoadReport(Map<String, Array> tensors, List<ConvertReport.Skipped> skipped, List<String> unusedRules) {
    public LoadReport {
        tensors = Collections.unmodifiableMap(new LinkedHashMap<>(tensors));
        skipped = List.copyOf(skipped);
        unusedRules = List.copyOf(unusedRules);
    }

    /** {@return the bytes of the loaded arrays' buffers, padding and tiles included} */
    public long bytes() {
        long n = 0;
        for (Array a : tensors.values()) {
            n = Math.addExact(n, a.shape().bufferSize());
        }
        return n;
    }
}
