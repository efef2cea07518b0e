package dev.tegula.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java code blocks of README.md and docs/guide.md are the tagged regions of
 * GuideExamplesTest, character for character, so the documents cannot drift from code that
 * compiles and runs. In Markdown, each {@code ```java} block follows a line
 * {@code <!-- snippet: NAME [NAME...] -->}; the named regions, joined by a blank line, must equal
 * the block. A name may have several regions in the test (they are joined, so assertions can sit
 * between them); each region is dedented by the smallest indentation of the name's lines.
 */
class DocSnippetsTest {
    private static final Path ROOT = Path.of("..");
    private static final Path EXAMPLES = Path.of("src/test/java/dev/tegula/cli/GuideExamplesTest.java");
    private static final Pattern BLOCK = Pattern.compile("(?:<!-- snippet: ([^>]*?) -->\\n)?```java\\n(.*?)```",
            Pattern.DOTALL);

    /** {@return the tagged regions of a source file by name, dedented} */
    static Map<String, String> regions(String source) {
        Map<String, List<String>> lines = new LinkedHashMap<>();
        Pattern tag = Pattern.compile("^\\s*// (tag|end)::([a-z0-9-]+)\\[\\]\\s*$");
        String open = null;
        for (String line : source.split("\n", -1)) {
            Matcher m = tag.matcher(line);
            if (m.matches()) {
                if (m.group(1).equals("tag")) {
                    assertEquals(null, open, "tag::" + m.group(2) + " inside " + open);
                    open = m.group(2);
                    lines.computeIfAbsent(open, k -> new ArrayList<>());
                } else {
                    assertEquals(open, m.group(2), "end::" + m.group(2) + " closes nothing");
                    open = null;
                }
            } else if (open != null) {
                lines.get(open).add(line);
            }
        }
        assertEquals(null, open, "tag::" + open + " is never closed");
        Map<String, String> out = new LinkedHashMap<>();
        lines.forEach((name, ls) -> {
            int indent = ls.stream().filter(l -> !l.isBlank()).mapToInt(l -> l.length() - l.stripLeading().length())
                    .min().orElse(0);
            StringBuilder sb = new StringBuilder();
            for (String l : ls) {
                sb.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
            }
            out.put(name, sb.toString());
        });
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"README.md", "docs/guide.md"})
    void everyJavaBlockIsATaggedRegion(String document) throws IOException {
        String md = Files.readString(ROOT.resolve(document));
        Map<String, String> regions = regions(Files.readString(EXAMPLES));
        Matcher m = BLOCK.matcher(md);
        int blocks = 0;
        while (m.find()) {
            blocks++;
            assertTrue(m.group(1) != null, document + ": a ```java block without <!-- snippet: NAME --> before it:\n"
                    + m.group(2));
            List<String> parts = new ArrayList<>();
            for (String name : m.group(1).strip().split("\\s+")) {
                assertTrue(regions.containsKey(name), document + ": no region tag::" + name + "[] in " + EXAMPLES);
                parts.add(regions.get(name));
            }
            assertEquals(String.join("\n", parts), m.group(2), document + ": snippet " + m.group(1)
                    + " differs from GuideExamplesTest; copy the region into the document");
        }
        assertTrue(blocks > 0, document + " has no java block");
    }

    @Test
    void regionsAreFoundAndDedented() {
        String src = """
                class X {
                    void f() {
                        // tag::a[]
                        try {
                            g();
                            // end::a[]
                            check();
                            // tag::a[]
                        }
                        // end::a[]
                    }
                }
                """;
        assertEquals("try {\n    g();\n}\n", regions(src).get("a"));
    }

    @Test
    void everyRegionIsQuotedSomewhere() throws IOException {
        String docs = Files.readString(ROOT.resolve("README.md")) + Files.readString(ROOT.resolve("docs/guide.md"));
        for (String name : regions(Files.readString(EXAMPLES)).keySet()) {
            assertTrue(Pattern.compile("<!-- snippet: (?:[^>]* )?" + Pattern.quote(name) + "(?: [^>]*)? -->").matcher(docs)
                    .find(), "region " + name + " is quoted by no document");
        }
        assertFalse(docs.contains("```Java"), "write ```java in lower case so the check finds the block");
    }
}
