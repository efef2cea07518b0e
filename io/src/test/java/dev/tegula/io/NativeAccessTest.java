package dev.tegula.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.modulepath.NativeAccessChild;
import dev.tegula.vector.Relayout;
import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which of Tegula's modules make restricted FFM calls, and so need
 * {@code --enable-native-access}: Tegula's modules on the module path (as a user's application
 * runs them) in a child JVM, which reports each module the JDK warns about. ffm makes them for
 * large host arrays (huge pages), for the file hints of a conversion (the C library binding is
 * ffm's), for {@code Array.wrapAddress} and for the unchecked view a relayout of a confined arena's
 * array runs on; io only for DLPack. Under
 * {@code --illegal-native-access=deny}, with native access for ffm alone, arrays and conversion
 * work and DLPack is refused.
 */
@EnabledOnOs(OS.LINUX)
class NativeAccessTest {
    @TempDir
    Path dir;

    private record Child(List<String> steps, TreeSet<String> warnedModules) {
    }

    /** Runs the child with Tegula's modules on the module path, {@code flags} added, and the steps. */
    private Child run(List<String> flags, String... steps) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> modules = new ArrayList<>();
        for (Class<?> c : List.of(ArrayShape.class, Array.class, Relayout.class, TensorFiles.class)) {
            modules.add(location(c));
        }
        List<String> cmd = new ArrayList<>(List.of(java, "--module-path", String.join(File.pathSeparator, modules),
                "--add-modules", "dev.tegula.io", "-cp", location(NativeAccessChild.class)));
        cmd.addAll(flags);
        cmd.add(NativeAccessChild.class.getName());
        cmd.add(dir.toString());
        cmd.addAll(List.of(steps));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), out);
        TreeSet<String> warned = new TreeSet<>();
        Matcher m = Pattern.compile("Use --enable-native-access=(\\S+) to avoid a warning").matcher(out);
        while (m.find()) {
            warned.add(m.group(1));
        }
        List<String> results = out.lines().filter(l -> List.of(steps).contains(l.split(" ")[0])).toList();
        assertEquals(steps.length, results.size(), out);
        return new Child(results, warned);
    }

    private static String location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }

    @Test
    void largeArraysConversionWrapAddressAndConfinedRelayoutsNeedItForFfmOnly() throws Exception {
        Child c = run(List.of(), "large", "convert", "wrapAddress", "confinedRelayout");
        assertEquals(List.of("large ok", "convert ok", "wrapAddress ok", "confinedRelayout ok"), c.steps());
        assertEquals(new TreeSet<>(List.of("dev.tegula.ffm")), c.warnedModules());
    }

    @Test
    void dlpackNeedsItForIo() throws Exception {
        Child c = run(List.of(), "dlpack");
        assertEquals(List.of("dlpack ok"), c.steps());
        assertEquals(new TreeSet<>(List.of("dev.tegula.io")), c.warnedModules());
    }

    @Test
    void withTheReadmesFlagNothingIsWarnedAbout() throws Exception {
        Child c = run(List.of("--enable-native-access=dev.tegula.ffm,dev.tegula.io"), "large", "convert", "wrapAddress",
                "dlpack");
        assertEquals(List.of("large ok", "convert ok", "wrapAddress ok", "dlpack ok"), c.steps());
        assertEquals(new TreeSet<>(), c.warnedModules());
    }

    @Test
    void deniedToIoDlpackIsRefusedWhileArraysAndConversionWork() throws Exception {
        Child c = run(List.of("--illegal-native-access=deny", "--enable-native-access=dev.tegula.ffm"), "large", "convert",
                "wrapAddress", "dlpack");
        assertEquals(List.of("large ok", "convert ok", "wrapAddress ok", "dlpack java.lang.IllegalCallerException"),
                c.steps());
    }

    @Test
    void deniedToBothArraysConversionAndConfinedRelayoutsFallBackAndWrapAddressIsRefused() throws Exception {
        Child c = run(List.of("--illegal-native-access=deny"), "large", "convert", "wrapAddress", "confinedRelayout");
        assertEquals(List.of("large ok", "convert ok", "wrapAddress java.lang.IllegalCallerException", "confinedRelayout ok"),
                c.steps());
    }
}
