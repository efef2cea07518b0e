package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;
import org.junit.jupiter.api.io.TempDir;

/**
 * File names that are not ASCII (UTF-8 bytes: {@code ü.npy}, a shard {@code model-ü.safetensors})
 * under {@code LC_ALL=C LANG=C}, where a JVM encodes file names in ASCII: the tool in a child JVM
 * started so refuses each such name in one line that says how to start it (exit status 2, never
 * an internal error), and in the JVM that {@code ./run} starts under that locale (LC_ALL set to a
 * UTF-8 locale, see {@link RunScriptTest}) inspects and converts them. The names are made and passed
 * by {@code sh} with {@code printf}, so this JVM's own locale does not matter.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class CLocaleTest {
    /** {@code ü}, {@code ö} in UTF-8, as printf writes them. */
    private static final String U = "\\303\\274";
    private static final String O = "\\303\\266";

    @TempDir
    Path dir;

    @BeforeEach
    void files() throws IOException, InterruptedException {
        try (Arena arena = Arena.ofConfined()) {
            Array a = Array.allocate(arena, ArrayShape.of(ElementType.F32, 2, 3));
            a.fill(2.5);
            Npy.write(a, dir.resolve("a.npy"));
            Path ckpt = Files.createDirectories(dir.resolve("ckpt"));
            SafeTensors.write(Map.of("w", a), ckpt.resolve("shard.safetensors"));
            Files.writeString(ckpt.resolve("model.safetensors.index.json"),
                    "{\"metadata\": {\"total_size\": 24}, \"weight_map\": {\"w\": \"model-\\u00fc.safetensors\"}}");
        }
        Shell s = sh(List.of(), "cp a.npy \"$(printf '" + U + ".npy')\" && mv ckpt/shard.safetensors \"ckpt/$(printf 'model-"
                + U + ".safetensors')\"");
        assertEquals(0, s.code(), s.err());
    }

    private record Shell(int code, String out, String err) {
        /** stderr without the JVM's incubator notice */
        List<String> errLines() {
            return err.lines().filter(l -> !l.startsWith("WARNING: Using incubator modules")).toList();
        }
    }

    /** Runs {@code script} with sh in {@code dir}, with {@code env} (NAME=VALUE) added; $JAVA runs the tool. */
    private Shell sh(List<String> env, String script) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder("/bin/sh", "-c", script).directory(dir.toFile());
        pb.environment().put("JAVA", Path.of(System.getProperty("java.home"), "bin", "java")
                + " --add-modules jdk.incubator.vector --enable-native-access=ALL-UNNAMED -cp "
                + System.getProperty("java.class.path") + " dev.tegula.cli.Main");
        pb.environment().remove("LANGUAGE");
        for (String e : env) {
            int eq = e.indexOf('=');
            pb.environment().put(e.substring(0, eq), e.substring(eq + 1));
        }
        Path out = dir.resolve("sh.out");
        Path err = dir.resolve("sh.err");
        Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the child finished");
        return new Shell(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private static final List<String> C = List.of("LC_ALL=C", "LANG=C");

    /** The commands: inspect and convert of a non-ASCII file, a non-ASCII OUT, a checkpoint with a non-ASCII shard. */
    private static List<String> commands() {
        return List.of(
                "$JAVA inspect \"$(printf '" + U + ".npy')\"",
                "$JAVA convert \"$(printf '" + U + ".npy')\" --layout '{0,1}' --out o1.npy",
                "$JAVA convert a.npy --layout '{0,1}' --out \"$(printf '" + O + ".npy')\"",
                "$JAVA inspect ckpt",
                "$JAVA convert ckpt --out ckpt2");
    }

    @Test
    void underTheCLocaleEachNonAsciiNameIsRefusedInOneLineThatSaysHowToStartTheTool() throws Exception {
        for (String command : commands()) {
            Shell r = sh(C, command);
            assertEquals(2, r.code(), () -> command + ": " + r.err());
            assertEquals(1, r.errLines().size(), () -> command + ": one line: " + r.err());
            String line = r.errLines().getFirst();
            assertFalse(line.contains("internal error"), line);
            assertTrue(line.contains("start it with a UTF-8 locale, e.g. LC_ALL=C.UTF-8"), () -> command + ": " + line);
            assertTrue(line.contains("LC_ALL=C"), line);
        }
        assertEquals(0, sh(List.of(), "test ! -e o1.npy && test ! -e ckpt2 && test ! -e \"$(printf '" + O + ".npy')\"")
                .code(), "nothing was written");
    }

    @Test
    void inTheJvmThatRunStartsUnderTheCLocaleInspectAndConvertWork() throws Exception {
        Shell locales = sh(List.of(), "locale -a 2>/dev/null | grep -i -m1 -x 'c\\.utf-\\{0,1\\}8'");
        assumeTrue(locales.code() == 0, "no C.UTF-8 locale on this system");
        List<String> utf8 = new ArrayList<>(C);
        utf8.set(0, "LC_ALL=" + locales.out().strip());   // what ./run exports for the JVM under LC_ALL=C
        for (String command : commands()) {
            Shell r = sh(utf8, command);
            assertEquals(0, r.code(), () -> command + ": " + r.err());
        }
        Shell check = sh(utf8, "$JAVA inspect o1.npy \"$(printf '" + O + ".npy')\" ckpt2");
        assertEquals(0, check.code(), check.err());
        assertTrue(check.out().contains("f32[2,3]{0,1}"), check.out());
        assertTrue(check.out().contains("model-\u00fc.safetensors"), check.out());
    }
}
