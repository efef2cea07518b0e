package dev.tegula.vector;

import dev.tegula.ffm.internal.Cpu;
import dev.tegula.vector.kernels.Tuning;
import dev.tegula.vector.plan.Pages;
import dev.tegula.vector.plan.PlanRequest;
import dev.tegula.vector.plan.WalkMemory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Relayout wisdom: the walks that measuring planners chose, kept so that a later plan of the same
 * relayout on the same machine takes them without timing anything (FFTW's word for the same idea).
 *
 * <p>An entry is keyed by the machine (CPU model, preferred vector width, JDK version), the thread
 * count, the pages under the buffers it was timed on ({@code huge}, {@code 4k} or {@code mixed}: a
 * walk fastest with huge pages need not be with 4 KiB ones) and the relayout (source and destination shapes, and the strides of either side that is a
 * strided view). Its value names, for each loop nest the planner measured, the walk it chose.
 * Entries of other machines are kept in the file but never used. A walk that does not fit its
 * relayout any more (an entry edited by hand, or one written by another version) is ignored: a
 * wrong or corrupt wisdom file can cost speed, never a wrong result or a failure.
 *
 * <h2>File format</h2>
 * UTF-8 text, one entry a line; lines that start with {@code #} and blank lines are comments. An
 * entry has eleven fields separated by tabs: {@code plan}, the CPU model, the preferred vector width
 * in bits (0: the scalar kernels), the JDK version, the thread count, the pages, the source shape, the
 * destination shape, the source's slot strides ({@code -} for a dense source; else comma-separated),
 * the destination's, and the walks: {@code NEST:WALK} items separated by {@code ;}, e.g.
 * <pre>{@code
 * # Tegula relayout wisdom 3
 * plan	Intel(R) Xeon(R) Processor	512	25.0.3+9-LTS	1	huge	f32[256,512,512]{2,1,0}	f32[256,512,512]{0,1,2}	-	-	0:order=0,1,2 split=0 tile=16 block=512x64 strips=staged bands=source
 * }</pre>
 * A file may also hold, for each machine, the {@link MachineFacts} its plans' estimates read: a line
 * of five fields, {@code facts}, the CPU model, the vector width, the JDK version and the facts'
 * text ({@link MachineFacts#toString()}), e.g.
 * {@code facts	AMD EPYC 7B13 64-Core Processor	256	25.0.3+9-LTS	vector=256 l1d=32768 l2=524288 hugePages=true plainStores=9.80 streamedStores=14.20}.
 * The header names the format's version (3 since the pages field; 2 since facts lines). Plan lines
 * of ten fields, from files of versions 1 and 2, have no pages field and are read as timed on huge
 * pages (where {@code tegula plan --measure} times unless told {@code -Dtegula.hugePages=false}).
 *
 * <p>A walk is {@code order=} the nest's loops outermost first (positions in the nest in destination
 * order), {@code split=} the loop threads share, and for transposes {@code tile=} 8 or 16,
 * {@code block=IxJ}, {@code strips=source|destination|staged}, {@code bands=source|destination}.
 *
 * <h2>Where it lives</h2>
 * {@link #global()} is the wisdom that {@link Relayout}'s own plans use. It lives in memory only
 * unless the application names a file with the system property {@value #PROPERTY}: a path, or
 * {@value #DEFAULT_VALUE} for the user's cache file ({@link #defaultFile()}:
 * {@code $XDG_CACHE_HOME/tegula/relayout-wisdom.txt}, or {@code ~/.cache/tegula/relayout-wisdom.txt});
 * {@code off} (or no value) keeps it in memory. So a wisdom file written by one process (by
 * {@code tegula plan --measure --save}, say) changes what another runs only where that other process
 * asks for the file. A named file is read once, when first used. It is written only where the
 * application also opts in with the system property {@value #SAVE_PROPERTY}{@code =true}: then each
 * new measured plan is added to the file (rewritten whole, through a temporary and a rename).
 * {@link #at(Path)} names a file explicitly and writes to it ({@code tegula plan --measure --save}
 * uses it). A file that cannot be read or written costs one warning ({@link System.Logger}, logger
 * {@code dev.tegula.vector}) and nothing else.
 *
 * <p>Thread-safe. Files over {@value #MAX_FILE_BYTES} bytes or entries past {@value #MAX_ENTRIES} are
 * ignored.
 */
public final class Wisdom {
    /**
     * The system property that names the file of {@link #global()}: a path, {@value #DEFAULT_VALUE}
     * for {@link #defaultFile()}, or {@code off}; unset, the global wisdom lives in memory only.
     */
    public static final String PROPERTY = "tegula.relayout.wisdom";
    /** The value of {@value #PROPERTY} that names the user's cache file, {@link #defaultFile()}. */
    public static final String DEFAULT_VALUE = "default";
    /** The system property ({@code true}) that lets {@link #global()} write its file. */
    public static final String SAVE_PROPERTY = "tegula.relayout.wisdom.save";
    /** The largest wisdom file read: {@value} bytes. */
    public static final long MAX_FILE_BYTES = 16L << 20;
    /** The most entries one wisdom holds: {@value}. */
    public static final int MAX_ENTRIES = 100_000;

    private static final String HEADER = "# Tegula relayout wisdom 3";
    private static final int FIELDS = 11;
    /** Fields of a plan line of versions 1 and 2 (no pages field). */
    private static final int OLD_FIELDS = 10;
    private static final int FACT_FIELDS = 5;
    private static final System.Logger LOG = System.getLogger("dev.tegula.vector");
    private static volatile Wisdom global;

    private final Path file;
    private final boolean writes;
    private final Map<String, String> entries = new LinkedHashMap<>();
    /** The machine facts kept, by machine (CPU model, vector width, JDK), in {@link MachineFacts}'s text. */
    private final Map<String, String> facts = new LinkedHashMap<>();
    private boolean warnedWrite;

    private Wisdom(Path file, boolean writes) {
        this.file = file;
        this.writes = writes;
    }

    /** {@return a wisdom that lives in memory only, empty} */
    public static Wisdom inMemory() {
        return new Wisdom(null, false);
    }

    /**
     * {@return the wisdom kept in {@code file}: its entries now, and every entry added later written
     * back to it} A missing file is empty wisdom; an unreadable or corrupt one costs a warning.
     */
    public static Wisdom at(Path file) {
        return of(file, true);
    }

    /** {@return the wisdom in {@code file}, read now, written back only where {@code writes}} */
    static Wisdom of(Path file, boolean writes) {
        Wisdom w = new Wisdom(file.toAbsolutePath(), writes);
        if (Files.exists(file)) {
            w.read(file);
        }
        return w;
    }

    /** {@return the process-wide wisdom of {@link Relayout}'s plans (see the class documentation)} */
    public static Wisdom global() {
        Wisdom w = global;
        if (w == null) {
            synchronized (Wisdom.class) {
                w = global;
                if (w == null) {
                    Path p = globalFile();
                    w = p == null ? inMemory() : of(p, Boolean.getBoolean(SAVE_PROPERTY));
                    global = w;
                }
            }
        }
        return w;
    }

    /**
     * {@return the file {@link #global()} reads: the one the system property {@value #PROPERTY}
     * names, or null (unset, blank or {@code off}) for wisdom in memory only}
     */
    public static Path globalFile() {
        return fileNamedBy(System.getProperty(PROPERTY));
    }

    /** {@return the file a value of {@value #PROPERTY} names, or null for none} */
    static Path fileNamedBy(String value) {
        if (value == null || value.isBlank() || value.trim().equals("off")) {
            return null;
        }
        return value.trim().equals(DEFAULT_VALUE) ? defaultFile() : Path.of(value.trim());
    }

    /**
     * {@return the user's cache file for relayout wisdom: {@code $XDG_CACHE_HOME/tegula/relayout-wisdom.txt},
     * or {@code ~/.cache/tegula/relayout-wisdom.txt}} {@code tegula plan --measure --save} writes it
     * (unless {@value #PROPERTY} names another file); {@link #global()} reads it only where
     * {@value #PROPERTY} is {@value #DEFAULT_VALUE}.
     */
    public static Path defaultFile() {
        String cache = System.getenv("XDG_CACHE_HOME");
        Path base = cache != null && !cache.isBlank() ? Path.of(cache)
                : Path.of(System.getProperty("user.home"), ".cache");
        return base.resolve("tegula").resolve("relayout-wisdom.txt");
    }

    /** {@return the file this wisdom was read from (and is written to, where {@link #writesFile()}), or null if it lives in memory only} */
    public Path file() {
        return file;
    }

    /** {@return whether entries added to this wisdom are written to its {@link #file()}} */
    public boolean writesFile() {
        return writes;
    }

    /** {@return how many entries this wisdom holds (of every machine)} */
    public synchronized int size() {
        return entries.size();
    }

    /** Forgets every entry (the file, if any, is left as it is until the next entry is added). */
    public synchronized void clear() {
        entries.clear();
    }

    /**
     * Adds the entries of a wisdom file (those of other machines too; they stay unused) and, if this
     * wisdom has a file, writes it. Malformed lines are skipped with one warning.
     *
     * @return how many entries of this machine the file gave
     * @throws IOException if the file cannot be read
     */
    public synchronized int importFrom(Path from) throws IOException {
        if (Files.size(from) > MAX_FILE_BYTES) {
            throw new IOException(from + ": wisdom file of " + Files.size(from) + " bytes is over the "
                    + MAX_FILE_BYTES + "-byte limit");
        }
        int n = parse(Files.readAllLines(from, StandardCharsets.UTF_8), from);
        save();
        return n;
    }

    /**
     * Writes every entry to {@code to} (whole or not at all: a temporary beside it, then a rename).
     *
     * @throws IOException if it cannot be written
     */
    public synchronized void exportTo(Path to) throws IOException {
        write(to, new ArrayList<>(facts.entrySet()), new ArrayList<>(entries.entrySet()));
    }

    /** {@return the machine facts kept for this machine, or null} */
    public synchronized MachineFacts facts() {
        String f = facts.get(machine());
        return f == null ? null : MachineFacts.parse(f);
    }

    /**
     * Keeps {@code f} as this machine's facts, in memory: a wisdom with a file writes them with its
     * next entry (or {@link #exportTo}), never on their own.
     */
    public synchronized void keepFacts(MachineFacts f) {
        facts.put(machine(), f.toString());
    }

    /** {@return the walks kept for this key on this machine, or null} */
    synchronized String lookup(String key) {
        return entries.get(machine() + "\t" + key);
    }

    /** Keeps {@code walks} for this key on this machine, and writes the file if there is one. */
    synchronized void remember(String key, String walks) {
        if (entries.size() >= MAX_ENTRIES && !entries.containsKey(machine() + "\t" + key)) {
            return;
        }
        entries.put(machine() + "\t" + key, walks);
        save();
    }

    /**
     * {@return this machine's part of a key: CPU model, preferred vector width in bits (0 where the
     * relayout kernels are scalar), JDK version, tab-separated}
     */
    static String machine() {
        return Cpu.model() + "\t" + (Tuning.VECTOR ? Tuning.VECTOR_BITS : 0) + "\t" + Runtime.version();
    }

    /** {@return the key of a relayout (after the machine): threads, pages, shapes and view strides, tab-separated} */
    static String key(int threads, String pages, String from, String to, long[] srcStrides, long[] dstStrides) {
        return threads + "\t" + pages + "\t" + from + "\t" + to + "\t" + strides(srcStrides) + "\t"
                + strides(dstStrides);
    }

    /** {@return this wisdom as the planner sees it: walks kept and looked up by request} */
    WalkMemory memory() {
        return new Memory(this);
    }

    /** The planner's view of a {@link Wisdom}: keys made from the request. */
    private record Memory(Wisdom wisdom) implements WalkMemory {
        @Override
        public String recall(PlanRequest r) {
            return wisdom.lookup(keyOf(r));
        }

        @Override
        public void remember(PlanRequest r, String walks) {
            wisdom.remember(keyOf(r), walks);
        }

        @Override
        public void warn(String message) {
            Wisdom.warn(message);
        }

        private static String keyOf(PlanRequest r) {
            return key(r.threads(), r.pageKind(), r.from().toString(), r.to().toString(), r.srcStrides(),
                    r.dstStrides());
        }
    }

    private static String strides(long[] s) {
        if (s == null) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length; i++) {
            b.append(i == 0 ? "" : ",").append(s[i]);
        }
        return b.toString();
    }

    private void read(Path from) {
        try {
            if (Files.size(from) > MAX_FILE_BYTES) {
                warn(from + ": wisdom file of " + Files.size(from) + " bytes is over the " + MAX_FILE_BYTES
                        + "-byte limit; ignored");
                return;
            }
            parse(Files.readAllLines(from, StandardCharsets.UTF_8), from);
        } catch (IOException | RuntimeException e) {
            warn(from + ": wisdom file not read (" + e + "); planning without it");
        }
    }

    /** Adds the well-formed entries of {@code lines}; one warning for the rest. {@return entries of this machine} */
    private int parse(List<String> lines, Path from) {
        int bad = 0;
        int mine = 0;
        int others = 0;
        String machine = machine();
        for (String line : lines) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] f = line.split("\t", -1);
            if (f.length == FACT_FIELDS && f[0].equals("facts") && wellFormedFacts(f)) {
                facts.put(String.join("\t", f[1], f[2], f[3]), f[4]);
                continue;
            }
            if (f.length == OLD_FIELDS && f[0].equals("plan")) {   // no pages field: timed on huge pages
                String[] g = new String[FIELDS];
                System.arraycopy(f, 0, g, 0, 5);
                g[5] = Pages.HUGE;
                System.arraycopy(f, 5, g, 6, OLD_FIELDS - 5);
                f = g;
            }
            if (f.length != FIELDS || !f[0].equals("plan") || !wellFormed(f)) {
                bad++;
                continue;
            }
            String key = String.join("\t", java.util.Arrays.copyOfRange(f, 1, FIELDS - 1));
            if (entries.size() < MAX_ENTRIES || entries.containsKey(key)) {
                entries.put(key, f[FIELDS - 1]);
            }
            if (key.startsWith(machine + "\t")) {
                mine++;
            } else {
                others++;
            }
        }
        if (bad > 0 || others > 0) {
            warn(from + ": " + (bad > 0 ? bad + " malformed wisdom line" + (bad == 1 ? "" : "s") + " ignored" : "")
                    + (bad > 0 && others > 0 ? "; " : "")
                    + (others > 0 ? others + " entr" + (others == 1 ? "y" : "ies") + " of another CPU, vector width or JDK"
                    + " not used here" : ""));
        }
        return mine;
    }

    private static boolean wellFormedFacts(String[] f) {
        if (!wellFormedText(f)) {
            return false;
        }
        try {
            MachineFacts.parse(f[4]);
            return Integer.parseInt(f[2]) >= 0;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static boolean wellFormedText(String[] f) {
        for (String x : f) {
            if (x.isEmpty()) {
                return false;
            }
            for (int i = 0; i < x.length(); i++) {
                if (Character.isISOControl(x.charAt(i))) {
                    return false;
                }
            }
        }
        return true;
    }

    private static boolean wellFormed(String[] f) {
        if (!wellFormedText(f)) {
            return false;
        }
        try {
            return Integer.parseInt(f[4]) >= 1 && Integer.parseInt(f[2]) >= 0 && Pages.valid(f[5]);
        } catch (NumberFormatException e) {
            return false;
        }
    }

    private void save() {
        if (file == null || !writes) {
            return;
        }
        try {
            // entries another process added since: keep them too (this process's win on a clash)
            Wisdom onDisk = new Wisdom(null, false);
            if (Files.exists(file)) {
                onDisk.read(file);
            }
            onDisk.entries.putAll(entries);
            entries.putAll(onDisk.entries);
            onDisk.facts.putAll(facts);
            facts.putAll(onDisk.facts);
            Files.createDirectories(file.getParent());
            write(file, new ArrayList<>(facts.entrySet()), new ArrayList<>(entries.entrySet()));
        } catch (IOException | RuntimeException e) {
            if (!warnedWrite) {
                warnedWrite = true;
                warn(file + ": wisdom not written (" + e + ")");
            }
        }
    }

    private static void write(Path to, List<Map.Entry<String, String>> factList, List<Map.Entry<String, String>> list)
            throws IOException {
        Path abs = to.toAbsolutePath();
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (Map.Entry<String, String> e : factList) {
            b.append("facts\t").append(e.getKey()).append('\t').append(e.getValue()).append('\n');
        }
        for (Map.Entry<String, String> e : list) {
            b.append("plan\t").append(e.getKey()).append('\t').append(e.getValue()).append('\n');
        }
        Path tmp = Files.createTempFile(abs.getParent(), "." + abs.getFileName() + ".", ".tmp");
        try {
            Files.writeString(tmp, b, StandardCharsets.UTF_8);
            try {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    static void warn(String message) {
        LOG.log(System.Logger.Level.WARNING, message);
    }

    /** {@return the CPU model this wisdom keys entries by (as {@code /proc/cpuinfo} names it)} */
    public static String cpuModel() {
        return Cpu.model();
    }
}
