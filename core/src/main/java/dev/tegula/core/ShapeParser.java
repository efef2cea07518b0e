package dev.tegula.core;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A recursive-descent parser for XLA's HLO shape text (spec section 3): whitespace and
 * {@code /* ... *}{@code /} or {@code //} comments between tokens, every layout attribute in XLA's
 * order, and Tegula's {@code PAD(...)} attribute last. One instance per parse; not thread-safe.
 */
final class ShapeParser {
    /** Attribute order inside a layout, after the ':'. */
    private static final String[] ATTRIBUTE_ORDER = {"D", "T", "L", "#", "*", "E", "S", "SC", "P", "M", "PAD"};

    private final String text;
    private final Validation level;
    private int pos;
    /** Tuples and buffers open around the current position; at most {@link Shape#MAX_NESTING_DEPTH}. */
    private int depth;
    /** Offset of the last integer read, for messages about its value. */
    private int lastIntegerAt;
    /** Where each parsed layout's parts are in the text, for the offset of a validation problem. */
    private final Map<Layout, Marks> marks = new IdentityHashMap<>();
    /** The marks of the layout being parsed. */
    private Marks current;

    /** The offsets of one layout's parts: its '{', each minor_to_major entry, each tile size, each attribute. */
    private static final class Marks {
        final int start;
        final List<Integer> entries = new ArrayList<>();
        /** Per tile: the offset of its '(' then of each size. */
        final List<List<Integer>> tiles = new ArrayList<>();
        final Map<String, Integer> attributes = new HashMap<>();

        Marks(int start) {
            this.start = start;
        }

        /**
         * {@return the offset of the part of {@code l} that {@code problem} is about} The
         * minor_to_major entry out of range or repeated, the tile size below 1, the attribute the
         * problem names; else the layout's '{'.
         */
        int offsetOf(Layout l, int rank, String problem) {
            int[] m = l.minorToMajor();
            int n = rank < 0 ? m.length : rank;
            if (problem.contains("minor_to_major")) {
                for (int i = 0; i < m.length && i < entries.size(); i++) {
                    if (m[i] < 0 || m[i] >= n) {
                        return entries.get(i);
                    }
                }
                for (int i = 0; i < m.length && i < entries.size(); i++) {
                    for (int j = 0; j < i; j++) {
                        if (m[j] == m[i]) {
                            return entries.get(i);
                        }
                    }
                }
                return start;
            }
            if (problem.contains("tile")) {
                List<Tile> ts = l.tiles();
                for (int t = 0; t < ts.size() && t < tiles.size(); t++) {
                    long[] d = ts.get(t).dimensions();
                    List<Integer> at = tiles.get(t);
                    if (d.length == 0) {
                        return at.get(0);
                    }
                    for (int k = 0; k < d.length && k + 1 < at.size(); k++) {
                        if (d[k] < 1 && d[k] != Tile.COMBINE) {
                            return at.get(k + 1);
                        }
                    }
                }
                if (problem.contains("padded")) {
                    return attributes.getOrDefault("PAD", attributes.getOrDefault("T", start));
                }
                return attributes.getOrDefault("T", start);
            }
            String[][] fields = {{"tail_padding", "L"}, {"index_primitive_type", "#"}, {"pointer_primitive_type", "*"},
                    {"element_size_in_bits", "E"}, {"memory_space", "S"}, {"split", "SC"},
                    {"physical dimension", "SC"}, {"dynamic_shape_metadata", "M"}, {"padd", "PAD"}};
            for (String[] f : fields) {
                if (problem.contains(f[0]) && attributes.containsKey(f[1])) {
                    return attributes.get(f[1]);
                }
            }
            return start;
        }
    }

    private ShapeParser(String text, Validation level) {
        this.text = text;
        this.level = level;
    }

    static Shape parse(String text, Validation level) {
        if (text == null) {
            throw new NullPointerException("text");
        }
        ShapeParser p = new ShapeParser(text, level == null ? Validation.STRICT : level);
        Shape s = p.shape();
        p.skip();
        if (p.pos < text.length()) {
            throw p.error("Extra content after shape: expected end of text, found '" + p.rest() + "'");
        }
        String problem = p.level.problem(s);
        if (problem != null) {
            throw p.invalid(s, problem);
        }
        return s;
    }

    /**
     * Parses a layout on its own, in braces ({@code {1,0:T(8,128)}}, {@code {}} for rank 0): its rank
     * is the number of {@code minor_to_major} entries. Checks what needs no shape ({@link Validator#layoutProblem(Layout)}).
     */
    static Layout parseLayout(String text) {
        if (text == null) {
            throw new NullPointerException("text");
        }
        ShapeParser p = new ShapeParser(text, Validation.STRICT);
        p.skip();
        int start = p.pos;
        p.expect('{', "to open a layout such as {1,0:T(8,128)}");
        Layout l = p.layout(start, -1);
        p.skip();
        if (p.pos < text.length()) {
            throw p.error("Extra content after layout: expected end of text, found '" + p.rest() + "'");
        }
        String problem = Validator.layoutProblem(l);
        if (problem != null) {
            Marks m = p.marks.get(l);
            throw new InvalidShapeException(text, m == null ? start : m.offsetOf(l, -1, problem), problem);
        }
        return l;
    }

    /**
     * {@return the exception for a parsed shape that fails validation with {@code problem}} located
     * at the layout part the problem is about; a problem of the shape as a whole (its sizes) at the
     * shape's first character.
     */
    private InvalidShapeException invalid(Shape s, String problem) {
        int first = 0;
        while (first < text.length() && Character.isWhitespace(text.charAt(first))) {
            first++;
        }
        int at = first;
        boolean sizes = problem.startsWith("Dimensions overflow") || problem.contains("size may overflow");
        if (s instanceof ArrayShape a && !sizes) {
            Marks m = marks.get(a.layout());
            if (m != null) {
                at = m.offsetOf(a.layout(), a.rank(), problem);
            }
        }
        return new InvalidShapeException(text, at, problem);
    }

    /** {@return the exception for text that is a shape, but not an array shape} */
    static ShapeParseException notAnArray(String text, Shape s) {
        int at = 0;
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
        String kind = switch (s) {
            case TupleShape t -> "a tuple";
            case BufferShape b -> "a buffer";
            case TokenShape t -> "a token";
            case OpaqueShape o -> "an opaque shape";
            case ArrayShape a -> throw new IllegalStateException("an array shape");
        };
        return new ShapeParseException(text, at, "expected an array shape such as f32[3,5]{1,0}, found " + kind);
    }

    // ---- lexing ----------------------------------------------------------------------------------------

    private void skip() {
        while (pos < text.length()) {
            char c = text.charAt(pos);
            if (Character.isWhitespace(c)) {
                pos++;
            } else if (text.startsWith("/*", pos)) {
                int end = text.indexOf("*/", pos + 2);
                if (end < 0) {
                    throw error("unterminated comment: expected '*/'");
                }
                pos = end + 2;
            } else if (text.startsWith("//", pos)) {
                int end = text.indexOf('\n', pos);
                pos = end < 0 ? text.length() : end + 1;
            } else {
                return;
            }
        }
    }

    private boolean peek(char c) {
        skip();
        return pos < text.length() && text.charAt(pos) == c;
    }

    private boolean peekAt(String s) {
        skip();
        return text.startsWith(s, pos);
    }

    private boolean accept(char c) {
        if (peek(c)) {
            pos++;
            return true;
        }
        return false;
    }

    private void expect(char c, String what) {
        if (!accept(c)) {
            throw error("expected '" + c + "' " + what + ", found " + found());
        }
    }

    private String found() {
        skip();
        if (pos >= text.length()) {
            return "end of text";
        }
        int end = pos + 1;
        while (end < text.length() && Character.isLetterOrDigit(text.charAt(end))
                && Character.isLetterOrDigit(text.charAt(pos))) {
            end++;
        }
        return "'" + text.substring(pos, end) + "'";
    }

    private String rest() {
        return text.substring(pos, Math.min(text.length(), pos + 20));
    }

    private ShapeParseException error(String expected) {
        return new ShapeParseException(text, Math.min(pos, text.length()), expected);
    }

    private ShapeParseException errorAt(int at, String expected) {
        return new ShapeParseException(text, at, expected);
    }

    private boolean peekIdentifierStart() {
        skip();
        return pos < text.length() && (Character.isLetter(text.charAt(pos)) || text.charAt(pos) == '_');
    }

    private String identifier() {
        skip();
        int start = pos;
        while (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '_')) {
            pos++;
        }
        return text.substring(start, pos);
    }

    /** Upper-case attribute names: a run of capital letters. */
    private String attributeName() {
        skip();
        if (pos < text.length() && (text.charAt(pos) == '#' || text.charAt(pos) == '*')) {
            return String.valueOf(text.charAt(pos++));
        }
        int start = pos;
        while (pos < text.length() && text.charAt(pos) >= 'A' && text.charAt(pos) <= 'Z') {
            pos++;
        }
        return text.substring(start, pos);
    }

    private boolean peekInteger() {
        skip();
        if (pos >= text.length()) {
            return false;
        }
        char c = text.charAt(pos);
        return isDigit(c) || (c == '-' && pos + 1 < text.length() && isDigit(text.charAt(pos + 1)));
    }

    /** Only ASCII {@code 0-9} are digits in XLA's text form ({@link Character#isDigit} also takes other scripts' digits). */
    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }

    /** {@code -?[0-9]+}, not followed by a letter, digit or '.' (XLA lexes {@code 2x3} and {@code 1.5} as other tokens). */
    private long integer(String what) {
        skip();
        int start = pos;
        lastIntegerAt = start;
        if (!peekInteger()) {
            throw error("expected an integer " + what + ", found " + found());
        }
        if (text.charAt(pos) == '-') {
            pos++;
        }
        while (pos < text.length() && isDigit(text.charAt(pos))) {
            pos++;
        }
        if (pos < text.length() && (Character.isLetterOrDigit(text.charAt(pos)) || text.charAt(pos) == '.')) {
            int end = pos;
            while (end < text.length() && (Character.isLetterOrDigit(text.charAt(end)) || text.charAt(end) == '.')) {
                end++;
            }
            throw errorAt(start, "expected an integer " + what + ", found '" + text.substring(start, end) + "'");
        }
        try {
            return Long.parseLong(text, start, pos, 10);
        } catch (NumberFormatException e) {
            throw errorAt(start, "integer " + text.substring(start, pos) + " " + what + " is out of the int64 range");
        }
    }

    // ---- grammar ---------------------------------------------------------------------------------------

    private Shape shape() {
        skip();
        if (peek('(')) {
            return tuple();
        }
        if (!peekIdentifierStart()) {
            throw error("expected a shape (a type such as f32[...], '(' for a tuple or 'b(' for a buffer), found "
                    + found());
        }
        int start = pos;
        String name = identifier();
        if (name.equals("b") && peek('(')) {
            return buffer(start);
        }
        ElementType type = ElementType.lookup(name);
        if (type == null || type == ElementType.TUPLE || type == ElementType.BUFFER) {
            throw errorAt(start, "expected a primitive type name (pred, s32, f32, bf16, ...), found '" + name + "'");
        }
        if (type == ElementType.TOKEN || type == ElementType.OPAQUE_TYPE) {
            expect('[', "after " + name);
            if (!accept(']')) {
                throw error(name + " shapes have no dimensions: expected ']', found " + found());
            }
            return type == ElementType.TOKEN ? TokenShape.INSTANCE : OpaqueShape.INSTANCE;
        }
        return array(type);
    }

    /** Enters one more level of tuple or buffer, refusing text nested deeper than the cap (no stack overflow). */
    private void enter() {
        skip();
        if (depth >= Shape.MAX_NESTING_DEPTH) {
            throw error("nesting deeper than " + Shape.MAX_NESTING_DEPTH + " tuples or buffers: refused");
        }
        depth++;
    }

    private TupleShape tuple() {
        enter();
        expect('(', "to open a tuple");
        List<Shape> elements = new ArrayList<>();
        if (!accept(')')) {
            do {
                int start = pos;
                Shape e = shape();
                // XLA builds tuples with MakeValidatedTupleShape: elements are validated even when parsing alone
                String p = (level == Validation.NONE ? Validation.XLA : level).problem(e);
                if (p != null) {
                    skip();
                    throw new IllegalArgumentException("tuple element " + elements.size() + " at offset " + start
                            + ": " + p);
                }
                elements.add(e);
            } while (accept(','));
            expect(')', "to close the tuple");
        }
        depth--;
        return TupleShape.of(elements);
    }

    private BufferShape buffer(int start) {
        enter();
        expect('(', "after 'b'");
        int inner = pos;
        Shape s = shape();
        if (!(s instanceof ArrayShape a)) {
            skip();
            throw errorAt(inner, "a buffer holds exactly one array shape, found " + s);
        }
        expect(')', "to close the buffer");
        depth--;
        return BufferShape.of(a);
    }

    private ArrayShape array(ElementType type) {
        expect('[', "after the element type " + type);
        List<Long> dims = new ArrayList<>();
        List<Boolean> dyn = new ArrayList<>();
        if (!accept(']')) {
            do {
                if (accept('?')) {
                    dims.add(ArrayShape.UNBOUNDED_SIZE);
                    dyn.add(true);
                } else if (peekAt("<=")) {
                    pos += 2;
                    dims.add(dimension("bound"));
                    dyn.add(true);
                } else {
                    dims.add(dimension("size"));
                    dyn.add(false);
                }
            } while (accept(','));
            expect(']', "to close the dimensions");
        }
        long[] d = new long[dims.size()];
        boolean[] f = new boolean[dims.size()];
        for (int i = 0; i < d.length; i++) {
            d[i] = dims.get(i);
            f[i] = dyn.get(i);
        }
        Layout layout = Layout.rowMajor(d.length);
        // '{' starts a layout only when an integer or ':' follows (so "f32[]{}" is not a layout)
        int save = pos;
        if (accept('{')) {
            if (peekInteger() || peek(':')) {
                int layoutStart = save;
                skip();
                layout = layout(layoutStart, d.length);
            } else {
                pos = save;
            }
        }
        return ArrayShape.unchecked(type, d, f, layout);
    }

    /**
     * A dimension size or bound. XLA's parser refuses negative sizes (it builds the shape with
     * {@code MakeValidatedShape}); {@code Long.MIN_VALUE} is kept, being the stored form of {@code ?}.
     */
    private long dimension(String what) {
        skip();
        int at = pos;
        long v = integer("(dimension " + what + ")");
        if (v < 0 && v != ArrayShape.UNBOUNDED_SIZE) {
            throw errorAt(at, "dimension " + what + " " + v + " is negative");
        }
        return v;
    }

    /** The layout after its '{'; {@code rank} is the shape's, or -1 for a layout on its own (any rank). */
    private Layout layout(int layoutStart, int rank) {
        List<Long> m2m = new ArrayList<>();
        Marks mk = new Marks(layoutStart);
        current = mk;
        if (peekInteger()) {
            do {
                skip();
                int at = pos;
                mk.entries.add(at);
                long v = integer("(minor_to_major entry)");
                if (v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
                    throw errorAt(at, "minor_to_major entry " + v + " is out of range");
                }
                m2m.add(v);
            } while (accept(','));
        }
        if (rank >= 0 && m2m.size() != rank) {
            throw errorAt(layoutStart, "layout minor_to_major field contains " + m2m.size() + " elements, but shape has "
                    + rank + " dimensions: {" + m2m.stream().map(String::valueOf).collect(
                    java.util.stream.Collectors.joining(",")) + "}");
        }
        int[] m = new int[m2m.size()];
        for (int i = 0; i < m.length; i++) {
            m[i] = (int) (long) m2m.get(i);
        }
        Layout l = Layout.unchecked(m);
        if (accept(':')) {
            l = attributes(l);
        }
        if (!accept('}')) {
            throw error("expects layout to end with '}', found " + found());
        }
        marks.put(l, mk);
        return l;
    }

    private Layout attributes(Layout l) {
        int next = 0;   // index into ATTRIBUTE_ORDER of the next allowed attribute
        List<Tile> tiles = new ArrayList<>();
        long tail = 1;
        ElementType indexType = null;
        ElementType pointerType = null;
        long bits = 0;
        long space = 0;
        List<SplitConfig> splits = new ArrayList<>();
        long prefix = 0;
        long[] padded = null;
        PaddingValue padValue = PaddingValue.ZERO;
        while (!peek('}') && pos < text.length()) {
            int at = pos;
            String name = attributeName();
            int order = indexOf(name);
            if (order < 0 || order < next) {
                pos = at;
                throw error("expects layout to end with '}', found " + found()
                        + (order >= 0 ? " (attribute " + name + " is repeated or out of order; the order is "
                        + "D T L # * E S SC P M PAD)" : ""));
            }
            next = order + 1;
            current.attributes.put(name, at);
            switch (name) {
                case "D" -> dimLevelTypes();
                case "T" -> {
                    do {
                        tiles.add(tile());
                    } while (peek('('));
                }
                case "L" -> {
                    tail = parenthesizedInteger("L");
                    if (tail <= 0) {
                        // XLA's parser aborts the process here (a CHECK in the setter): an error at every level
                        throw errorAt(lastIntegerAt, "L(" + tail + "): the tail padding alignment must be positive");
                    }
                }
                case "#" -> indexType = parenthesizedType("#");
                case "*" -> pointerType = parenthesizedType("*");
                case "E" -> bits = parenthesizedInteger("E");
                case "S" -> {
                    space = parenthesizedInteger("S");
                    if (space < Byte.MIN_VALUE || space > Byte.MAX_VALUE) {
                        // XLA keeps the id in 8 bits and would read S(128) back as S(-128)
                        throw errorAt(lastIntegerAt, "S(" + space + ") does not fit in XLA's 8-bit memory space: "
                                + "expected -128..127 (0..127 at STRICT)");
                    }
                }
                case "SC" -> {
                    do {
                        splits.add(splitConfig());
                    } while (peek('('));
                }
                case "P" -> {
                    // Tegula, like XLA, has dense arrays only; XLA's parser refuses P(...) on them
                    throw errorAt(at, "Layout has physical shape, but is not for a sparse array");
                }
                case "M" -> prefix = parenthesizedInteger("M");
                case "PAD" -> {
                    expect('(', "after PAD");
                    List<Long> sizes = new ArrayList<>();
                    do {
                        sizes.add(integer("(padded dimension size)"));
                    } while (accept(','));
                    if (accept(':')) {
                        int vat = pos;
                        String v = identifier();
                        padValue = PaddingValue.fromTextName(v);
                        if (padValue == null) {
                            throw errorAt(vat, "expected a padding value (invalid, zero, one, lowest, highest, "
                                    + "unknown), found '" + v + "'");
                        }
                    }
                    expect(')', "to close PAD(...)");
                    padded = sizes.stream().mapToLong(Long::longValue).toArray();
                }
                default -> throw new IllegalStateException(name);
            }
        }
        return new Layout(l.minorToMajor, tiles.toArray(new Tile[0]), tail, indexType, pointerType, bits, space,
                splits.toArray(new SplitConfig[0]), null, prefix, padded, padValue);
    }

    private static int indexOf(String name) {
        for (int i = 0; i < ATTRIBUTE_ORDER.length; i++) {
            if (ATTRIBUTE_ORDER[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** {@code D(D,C+,S~,H)}: legacy dimension level types, parsed and dropped as XLA does. */
    private void dimLevelTypes() {
        expect('(', "after D");
        if (accept(')')) {
            return;
        }
        do {
            skip();
            char c = pos < text.length() ? text.charAt(pos) : '\0';
            if (c != 'D' && c != 'C' && c != 'S' && c != 'H') {
                throw error("expected a DimLevelType abbreviation (D, C, S or H), found " + found());
            }
            pos++;
            if (pos < text.length() && text.charAt(pos) == '+') {
                pos++;
            }
            if (pos < text.length() && text.charAt(pos) == '~') {
                pos++;
            }
        } while (accept(','));
        expect(')', "to close D(...)");
    }

    private Tile tile() {
        List<Integer> at0 = new ArrayList<>();
        skip();
        at0.add(pos);
        current.tiles.add(at0);
        expect('(', "to open a tile");
        List<Long> dims = new ArrayList<>();
        if (!peek(')')) {
            do {
                skip();
                at0.add(pos);
                if (accept('*')) {
                    dims.add(Tile.COMBINE);
                } else {
                    int at = pos;
                    long v = integer("(tile size)");
                    if (v < 0 && v != Tile.COMBINE) {
                        // XLA's parser aborts the process on these (LOG(FATAL)): an error at every level
                        throw errorAt(at, "tile size " + v + " is negative: expected a positive size or '*'");
                    }
                    dims.add(v);
                }
            } while (accept(','));
        }
        expect(')', "to close the tile");
        return Tile.unchecked(dims.stream().mapToLong(Long::longValue).toArray());
    }

    private SplitConfig splitConfig() {
        expect('(', "to open a split config");
        long dim = integer("(split dimension)");
        if (dim < Integer.MIN_VALUE || dim > Integer.MAX_VALUE) {
            throw error("split dimension " + dim + " is out of range");
        }
        expect(':', "after the split dimension");
        List<Long> idx = new ArrayList<>();
        if (peekInteger()) {
            do {
                idx.add(integer("(split index)"));
            } while (accept(','));
        }
        expect(')', "to close the split config");
        return new SplitConfig((int) dim, idx.stream().mapToLong(Long::longValue).toArray());
    }

    private long parenthesizedInteger(String attr) {
        expect('(', "after " + attr);
        long v = integer("in " + attr + "(...)");
        expect(')', "to close " + attr + "(...)");
        return v;
    }

    private ElementType parenthesizedType(String attr) {
        expect('(', "after " + attr);
        int at = pos;
        skip();
        at = pos;
        String name = identifier();
        ElementType t = ElementType.lookup(name);
        if (t == null || !t.isArrayType()) {
            throw errorAt(at, "expected a primitive type in " + attr + "(...), found '" + name + "'");
        }
        expect(')', "to close " + attr + "(...)");
        return t;
    }
}
