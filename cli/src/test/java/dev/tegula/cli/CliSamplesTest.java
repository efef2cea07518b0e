package dev.tegula.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.ffm.Array;
import dev.tegula.io.npy.Npy;
import dev.tegula.io.safetensors.SafeTensors;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.foreign.Arena;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The command samples of docs/cli.md and docs/guide.md marked {@code <!-- sample -->} are what the
 * commands print. Each document's samples run in order, in process, in a scratch directory that
 * holds the files they name: {@code model.safetensors} (w bf16[20,300], b f32[3,4], metadata
 * {@code format = pt}), {@code weights.npy} (f64[2,3], Fortran order), {@code model.gguf} (the
 * io fixture all_types_v3.gguf), {@code tiny-llama} (the checkpoint fixture transformers saved) and
 * what a {@code convert --out model-copy.safetensors} killed outright would leave: its temporary
 * {@code .model-copy.safetensors.8841020547305276161.tmp} (6 GiB, sparse) and a lock file no process
 * holds.
 * A line {@code $ ./run ARGS} runs the command (file names are taken in the scratch directory);
 * the lines under it are stderr then stdout, the scratch directory's path taken out; a line
 * {@code ...} stands for any lines; {@code $ echo $?} checks the exit status.
 */
class CliSamplesTest {
    private static final Path ROOT = Path.of("..");
    private static final Path FIXTURES = ROOT.resolve("io/src/test/resources/dev/tegula/io");
    private static final Pattern SAMPLE = Pattern.compile("<!-- sample -->\\n```\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path scratch;

    private void files() throws IOException {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Array> t = new LinkedHashMap<>();
            Array w = Array.allocate(arena, ArrayShape.of(ElementType.BF16, 20, 300));
            w.copyFrom(java.util.stream.IntStream.range(0, 6000).mapToDouble(i -> i % 97 - 48).toArray());
            t.put("w", w);
            Array b = Array.allocate(arena, ArrayShape.of(ElementType.F32, 3, 4));
            b.copyFrom(new double[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
            t.put("b", b);
            SafeTensors.write(t, Map.of("format", "pt"), scratch.resolve("model.safetensors"));
            Array n = Array.allocate(arena, ArrayShape.of(ElementType.F64, 2, 3).withLayout(Layout.columnMajor(2)));
            n.copyFrom(new double[] {1, 2, 3, 4, 5, 6});
            Npy.write(n, scratch.resolve("weights.npy"));
        }
        Files.copy(FIXTURES.resolve("gguf/all_types_v3.gguf"), scratch.resolve("model.gguf"));
        String stale = ".model-copy.safetensors.8841020547305276161";
        try (RandomAccessFile tmp = new RandomAccessFile(scratch.resolve(stale + ".tmp").toFile(), "rw")) {
            tmp.setLength(6L << 30);   // sparse: the size of what was written, without writing it
        }
        Files.createFile(scratch.resolve(stale + ".lock"));
        Path llama = Files.createDirectory(scratch.resolve("tiny-llama"));
        try (Stream<Path> s = Files.list(FIXTURES.resolve("checkpoint/tiny-llama"))) {
            for (Path f : s.toList()) {
                Files.copy(f, llama.resolve(f.getFileName().toString()));
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"docs/cli.md", "docs/guide.md"})
    void markedSamplesAreWhatTheCommandsPrint(String document) throws IOException {
        files();
        String md = Files.readString(ROOT.resolve(document));
        Matcher m = SAMPLE.matcher(md);
        int samples = 0;
        while (m.find()) {
            samples++;
            check(document, m.group(1));
        }
        assertTrue(samples > 0, document + " has no <!-- sample --> block");
    }

    /** Runs the commands of one sample block and compares what they print. */
    private void check(String document, String block) {
        List<String> lines = block.lines().toList();
        Integer status = null;
        String command = null;
        for (int i = 0; i < lines.size(); ) {
            String line = lines.get(i);
            assertTrue(line.startsWith("$ "), document + ": expected a command, got: " + line);
            int next = i + 1;
            while (next < lines.size() && !lines.get(next).startsWith("$ ")) {
                next++;
            }
            List<String> expected = lines.subList(i + 1, next);
            if (line.equals("$ echo $?")) {
                assertEquals(List.of(String.valueOf(status)), expected, document + ": exit status of " + command);
            } else {
                assertTrue(line.startsWith("$ ./run"), document + ": only ./run and echo $? are run: " + line);
                command = line;
                MainTest.Result r = MainTest.run(args(line.substring("$ ./run".length())));
                status = r.status();
                List<String> actual = new ArrayList<>();
                actual.addAll(printed(r.err()));
                actual.addAll(printed(r.out()));
                assertTrue(matches(expected, actual), document + ": " + line + "\nprinted:\n" + String.join("\n", actual)
                        + "\ndocumented:\n" + String.join("\n", expected));
            }
            i = next;
        }
    }

    /** {@return the lines printed, the scratch directory's path taken out} */
    private List<String> printed(String text) {
        return text.replace(scratch + "/", "").replace(scratch.toString(), ".").lines().toList();
    }

    /** {@return true if {@code actual} is {@code expected}, where a line {@code ...} stands for any lines} */
    static boolean matches(List<String> expected, List<String> actual) {
        if (expected.isEmpty()) {
            return actual.isEmpty();
        }
        if (expected.getFirst().strip().equals("...")) {
            for (int k = 0; k <= actual.size(); k++) {
                if (matches(expected.subList(1, expected.size()), actual.subList(k, actual.size()))) {
                    return true;
                }
            }
            return false;
        }
        return !actual.isEmpty() && expected.getFirst().equals(actual.getFirst())
                && matches(expected.subList(1, expected.size()), actual.subList(1, actual.size()));
    }

    /** {@return the words of a command line: split at spaces, single quotes keep what they hold; names of files in the scratch directory} */
    private String[] args(String text) {
        List<String> words = new ArrayList<>();
        StringBuilder w = null;
        boolean quoted = false;
        for (char c : text.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
                w = w == null ? new StringBuilder() : w;
            } else if (c == ' ' && !quoted) {
                if (w != null) {
                    words.add(w.toString());
                    w = null;
                }
            } else {
                w = (w == null ? new StringBuilder() : w).append(c);
            }
        }
        if (w != null) {
            words.add(w.toString());
        }
        for (int i = 0; i < words.size(); i++) {
            String word = words.get(i);
            boolean output = i > 0 && List.of("--out", "--png", "--svg").contains(words.get(i - 1));
            if (!word.startsWith("-") && !word.contains("[") && (output || Files.exists(scratch.resolve(word)))) {
                words.set(i, scratch.resolve(word).toString() + (word.endsWith("/") ? "/" : ""));
            }
        }
        return words.toArray(String[]::new);
    }

    @Test
    void anEllipsisStandsForAnyLines() {
        assertTrue(matches(List.of("a", "...", "d"), List.of("a", "b", "c", "d")));
        assertTrue(matches(List.of("a", "  ...", "d"), List.of("a", "d")));
        assertTrue(!matches(List.of("a", "...", "d"), List.of("a", "b", "c")));
        assertTrue(!matches(List.of("a", "b"), List.of("a", "b", "c")));
    }
}
