package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import java.nio.file.Path;

/**
 * A conversion run in a child JVM by {@link ConvertInterruptTest}: converts {@code args[0]} to
 * {@code args[1]} (its matrices in tiles) with a 1 MiB budget, prints {@code started} after the first window and
 * then slows down (100 ms a window) so that the parent can kill it part-way; with a third argument
 * {@code fast}, at full speed (for {@link ConvertMemoryTest}); with {@code hold}, it stops after the first
 * window until it is killed (a conversion that is still running however long the parent takes).
 */
public final class ConvertChild {
    private ConvertChild() {
    }

    public static void main(String[] args) throws Exception {
        ArrayShape tiled = ArrayShape.parse("f32[8,128]{1,0:T(8,128)}");
        boolean fast = args.length > 2 && args[2].equals("fast");
        long pause = args.length > 2 && args[2].equals("hold") ? 600_000 : 100;
        boolean[] said = {false};
        ConvertProgress slow = fast ? ConvertProgress.NONE : (tensor, done, total) -> {
            if (!said[0] && done > 0) {
                System.out.println("started");
                System.out.flush();
                said[0] = true;
            }
            try {
                Thread.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        };
        TensorFiles.convert(Path.of(args[0]), Path.of(args[1]), ConvertRules.all().layout("rank2:*", tiled.layout()),
                ConvertOptions.defaults().withMemory(1L << 20).withProgress(slow));
        System.out.println("finished");
    }
}
