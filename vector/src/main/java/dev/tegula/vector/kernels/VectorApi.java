package dev.tegula.vector.kernels;

/**
 * Whether this JVM has the Vector API (module {@code jdk.incubator.vector}), asked before any class
 * that uses it is loaded. On the module path, {@code dev.tegula.vector}'s {@code requires} resolves
 * the module; on the class path only {@code --add-modules jdk.incubator.vector} does, and without it
 * the first kernel class fails to load with a bare {@link NoClassDefFoundError} naming a class of
 * {@code jdk/incubator/vector}. The entry points that reach the kernels ({@code Relayout},
 * {@code Dequantize}) ask {@link #require()} first, so the error says which flag to add. Stateless.
 */
public final class VectorApi {
    /** True if the module is in the layer of this module (the boot layer on the class path), looked up once. */
    private static final boolean PRESENT = present();

    private VectorApi() {
    }

    private static boolean present() {
        ModuleLayer layer = VectorApi.class.getModule().getLayer();
        return (layer != null ? layer : ModuleLayer.boot()).findModule("jdk.incubator.vector").isPresent();
    }

    /**
     * Returns if the Vector API is there.
     *
     * @throws NoClassDefFoundError saying to add {@code --add-modules jdk.incubator.vector}, if it is not
     */
    public static void require() {
        if (!PRESENT) {
            throw missing();
        }
    }

    private static NoClassDefFoundError missing() {
        return new NoClassDefFoundError("jdk/incubator/vector: Tegula's relayout engine needs the Vector API, which this"
                + " JVM was started without: add --add-modules jdk.incubator.vector to the java command (code on the class"
                + " path gets no incubator module unless asked; on the module path, dev.tegula.vector requires it)");
    }
}
