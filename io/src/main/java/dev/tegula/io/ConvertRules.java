package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.InvalidShapeException;
import dev.tegula.core.Layout;
import dev.tegula.core.ShapeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which tensors {@link TensorFiles#convert} writes and in what shape: per-tensor rules chosen by
 * pattern. Immutable; each method returns a new rule set with one more rule.
 *
 * <p>A pattern is a glob over the whole tensor name, optionally after a rank condition:
 * {@code rankN:GLOB} selects only the tensors of rank {@code N} whose names match {@code GLOB}
 * ({@code rank2:*.weight}: the weight matrices, not the 1-D norm weights also called
 * {@code *.weight}). In a glob {@code *} matches any run of characters (dots and slashes
 * included), {@code ?} one character, everything else itself; {@code *} alone matches every tensor.
 *
 * <p>For each tensor the <em>first</em> layout rule whose pattern selects it gives its layout, and
 * the first selecting type rule its element type. A tensor no layout rule selects is written
 * row-major ({@code {n-1,...,0}}); one no type rule selects keeps its type. A tensor an
 * {@link #exclude} rule selects is not written at all. A rule that decides nothing is reported
 * ({@link ConvertReport#unusedRules()}): it matches no tensor, or earlier rules take every tensor
 * it matches.
 *
 * {@snippet :
 * ConvertRules rules = ConvertRules.all()
 *         .layout("rank2:*.weight", "{1,0:T(8,128)(2,1)}")   // weight matrices tiled
 *         .exclude("*.rotary_emb.inv_freq")                  // not written
 *         .floatType(ElementType.BF16);                      // every floating-point tensor to bf16
 * }
 */
public final class ConvertRules {
    private static final Pattern RANK = Pattern.compile("rank([0-9]+):(.*)", Pattern.DOTALL);

    private enum Kind { LAYOUT, SHAPE, TYPE, FLOAT_TYPE, EXCLUDE }

    /**
     * One rule: the tensors it selects (of one rank or any, by a glob over the name) and what it gives them.
     *
     * @param what how the rule is described in reports
     */
    private record Rule(Kind kind, String selector, int rank, Pattern glob, Layout layout, String layoutText,
                        ElementType type, long[] dims, String what) {
        boolean selects(String name, ArrayShape shape) {
            return (rank < 0 || shape.rank() == rank) && glob.matcher(name).matches()
                    && (kind != Kind.FLOAT_TYPE || shape.elementType().isFloating());
        }

        boolean givesType() {
            return type != null;
        }

        boolean givesLayout() {
            return layout != null || layoutText != null;
        }
    }

    private final List<Rule> rules;
    private final String only;
    private final long memorySpace;

    private ConvertRules(List<Rule> rules, String only, long memorySpace) {
        this.rules = List.copyOf(rules);
        this.only = only;
        this.memorySpace = memorySpace;
    }

    /** {@return rules that write every tensor row-major in its own type} */
    public static ConvertRules all() {
        return new ConvertRules(List.of(), null, 0);
    }

    /** {@return these rules, writing only the tensor called {@code name}} */
    public ConvertRules only(String name) {
        return new ConvertRules(rules, Objects.requireNonNull(name, "name"), memorySpace);
    }

    /**
     * {@return these rules, every tensor whose layout names no memory space ({@code S(0)}, host
     * memory) placed in memory space {@code S(memorySpace)} instead} This is how a whole checkpoint
     * goes to a device ({@link TensorFiles#load}) without a memory space in every layout rule; a
     * layout that names one keeps it. {@code 0} takes the setting back.
     *
     * @throws IllegalArgumentException if {@code memorySpace} is negative
     */
    public ConvertRules memorySpace(long memorySpace) {
        if (memorySpace < 0) {
            throw new IllegalArgumentException("memorySpace: " + memorySpace + " is negative");
        }
        return new ConvertRules(rules, only, memorySpace);
    }

    /** {@return the one tensor selected by {@link #only}, or null when every tensor is written} */
    public String selected() {
        return only;
    }

    /**
     * {@return these rules and one more: tensors {@code pattern} selects get {@code layout}}
     * A selected tensor of another rank than the layout's is refused when it is converted.
     *
     * @throws IllegalArgumentException if the pattern's rank condition is not a number
     */
    public ConvertRules layout(String pattern, Layout layout) {
        Objects.requireNonNull(layout, "layout");
        return add(rule(Kind.LAYOUT, pattern, layout, null, null, null, "layout '" + pattern + "' " + layout));
    }

    /**
     * {@return these rules and one more: tensors {@code pattern} selects get the layout written as
     * XLA text in braces, e.g. {@code "{1,0:T(8,128)(2,1)}"}} The text is parsed against each
     * selected tensor's own shape (so {@code E(n)} and tiles are checked for its type and
     * dimensions); {@code "{}"} is the layout of a scalar. A selected tensor of another rank than
     * the layout's is refused when it is converted (a {@code rankN:} pattern selects only those of
     * rank N).
     *
     * @throws IllegalArgumentException if the pattern's rank condition is not a number
     */
    public ConvertRules layout(String pattern, String layoutText) {
        String text = Objects.requireNonNull(layoutText, "layoutText").strip();
        return add(rule(Kind.LAYOUT, pattern, null, text, null, null, "layout '" + pattern + "' " + text));
    }

    /**
     * {@return these rules and one more: tensors {@code pattern} selects get {@code shape}'s element
     * type and layout} Its dimensions must be the tensor's (checked when it is converted): this is
     * how the full shape text {@code tegula convert} prints is taken back.
     *
     * @throws IllegalArgumentException if the pattern's rank condition is not a number
     */
    public ConvertRules shape(String pattern, ArrayShape shape) {
        Objects.requireNonNull(shape, "shape");
        return add(rule(Kind.SHAPE, pattern, shape.layout(), null, shape.elementType(), shape.dimensions(),
                "shape '" + pattern + "' " + shape));
    }

    /**
     * {@return these rules and one more: tensors {@code pattern} selects are converted to {@code type}}
     *
     * @throws IllegalArgumentException if the pattern's rank condition is not a number
     */
    public ConvertRules type(String pattern, ElementType type) {
        Objects.requireNonNull(type, "type");
        return add(rule(Kind.TYPE, pattern, null, null, type, null, "type '" + pattern + "' " + type.hloName()));
    }

    /** {@return these rules and one more: every floating-point tensor is converted to {@code type}} */
    public ConvertRules floatType(ElementType type) {
        Objects.requireNonNull(type, "type");
        return add(rule(Kind.FLOAT_TYPE, "*", null, null, type, null, "type " + type.hloName()
                + " (for every floating-point tensor)"));
    }

    /**
     * {@return these rules and one more: tensors {@code pattern} selects are not written}
     *
     * @throws IllegalArgumentException if the pattern's rank condition is not a number
     */
    public ConvertRules exclude(String pattern) {
        return add(rule(Kind.EXCLUDE, pattern, null, null, null, null, "exclude '" + pattern + "'"));
    }

    private static Rule rule(Kind kind, String pattern, Layout layout, String layoutText, ElementType type, long[] dims,
                             String what) {
        Objects.requireNonNull(pattern, "pattern");
        int rank = -1;
        String glob = pattern;
        Matcher m = RANK.matcher(pattern);
        if (m.matches()) {
            try {
                rank = Integer.parseInt(m.group(1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("pattern: rank " + m.group(1) + " of '" + pattern + "' is not a rank");
            }
            glob = m.group(2);
        }
        return new Rule(kind, pattern, rank, pattern(glob), layout, layoutText, type, dims, what);
    }

    private ConvertRules add(Rule r) {
        List<Rule> l = new ArrayList<>(rules);
        l.add(r);
        return new ConvertRules(l, only, memorySpace);
    }

    /** {@return true if the tensor called {@code name}, of shape {@code shape}, is written: {@link #only} allows it and no {@link #exclude} rule selects it} */
    public boolean selects(String name, ArrayShape shape) {
        if (only != null && !only.equals(name)) {
            return false;
        }
        for (Rule r : rules) {
            if (r.kind == Kind.EXCLUDE && r.selects(name, shape)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@return the shape the tensor {@code name} of shape {@code source} is written in} A layout
     * without a memory space gets the one {@link #memorySpace(long)} set.
     *
     * @throws IllegalArgumentException naming the tensor, if the selecting rule's layout does not
     *                                  fit it (another rank, a tile its type or dimensions do not
     *                                  allow) or a shape rule's dimensions differ from its own
     */
    public ArrayShape target(String name, ArrayShape source) {
        ArrayShape s = ruled(name, source);
        return memorySpace == 0 || s.layout().memorySpace() != 0 ? s
                : s.withLayout(s.layout().withMemorySpace(memorySpace));
    }

    private ArrayShape ruled(String name, ArrayShape source) {
        Rule t = typeRule(name, source);
        ArrayShape plain = ArrayShape.of(t == null ? source.elementType() : t.type, source.dimensions());
        Rule r = layoutRule(name, source);
        if (r == null) {
            return plain.equals(source) ? source : plain;   // one shape object per tensor, however many tensors
        }
        if (r.layoutText != null) {
            return parse(name, plain, r);
        }
        if (r.dims != null && !Arrays.equals(r.dims, source.dimensions())) {
            throw new IllegalArgumentException("tensor '" + name + "' is " + source.toStringWithoutLayout()
                    + ": rule '" + r.selector + "' gives dimensions " + Arrays.toString(r.dims));
        }
        if (r.layout.minorToMajor().length != source.rank()) {
            throw new IllegalArgumentException(rankMismatch(name, source, r, r.layout.toString(), r.layout.minorToMajor().length));
        }
        try {
            return plain.withLayout(r.layout);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("tensor '" + name + "' " + plain.toStringWithoutLayout()
                    + ": the layout " + r.layout + " of rule '" + r.selector + "' does not fit: " + e.getMessage(), e);
        }
    }

    private Rule typeRule(String name, ArrayShape source) {
        for (Rule r : rules) {
            if (r.givesType() && r.selects(name, source)) {
                return r;
            }
        }
        return null;
    }

    private Rule layoutRule(String name, ArrayShape source) {
        for (Rule r : rules) {
            if (r.givesLayout() && r.selects(name, source)) {
                return r;
            }
        }
        return null;
    }

    /**
     * {@return each rule that decides nothing for these tensors, described with the reason: it
     * matches no tensor, or each tensor it matches takes an earlier rule}
     *
     * @param all     every tensor of the input (what {@link #exclude} rules are matched against)
     * @param written the tensors written (what the layout and type rules are matched against)
     */
    List<String> unused(List<TensorSource.Named> all, List<TensorSource.Named> written) {
        Set<Rule> used = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Rule> matched = Collections.newSetFromMap(new IdentityHashMap<>());
        for (TensorSource.Named t : all) {
            for (Rule r : rules) {
                if (r.kind == Kind.EXCLUDE && r.selects(t.name(), t.shape())) {
                    used.add(r);
                }
            }
        }
        for (TensorSource.Named t : written) {
            for (Rule r : rules) {
                if (r.kind != Kind.EXCLUDE && r.selects(t.name(), t.shape())) {
                    matched.add(r);
                }
            }
            Rule type = typeRule(t.name(), t.shape());
            Rule layout = layoutRule(t.name(), t.shape());
            if (type != null) {
                used.add(type);
            }
            if (layout != null) {
                used.add(layout);
            }
        }
        List<String> out = new ArrayList<>();
        for (Rule r : rules) {
            if (!used.contains(r)) {
                out.add(r.what + (matched.contains(r) ? " decides nothing: each tensor it matches takes an earlier rule"
                        : " matches no tensor" + (r.kind == Kind.EXCLUDE || only == null ? "" : " written")));
            }
        }
        return out;
    }

    private static ArrayShape parse(String name, ArrayShape plain, Rule r) {
        String text = r.layoutText;
        String prefix = "tensor '" + name + "' " + plain.toStringWithoutLayout() + ": the layout '" + text + "' of rule '"
                + r.selector + "' ";
        if (!text.startsWith("{")) {
            throw new IllegalArgumentException(prefix + "is not a layout in braces such as '{1,0:T(8,128)(2,1)}'");
        }
        int rank = layoutRank(text);
        if (rank >= 0 && rank != plain.rank()) {
            throw new IllegalArgumentException(rankMismatch(name, plain, r, "'" + text + "'", rank));
        }
        try {
            return plain.withLayout(Layout.parse(text));
        } catch (ShapeParseException e) {
            throw new IllegalArgumentException(prefix + "does not parse: " + e.expected() + " (at offset " + e.offset()
                    + " of the layout)", e);
        } catch (InvalidShapeException e) {
            throw new IllegalArgumentException(prefix + "does not fit: " + e.problem() + " (at offset " + e.offset()
                    + " of the layout)", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + "does not fit: " + e.getMessage(), e);
        }
    }

    private static String rankMismatch(String name, ArrayShape shape, Rule r, String layout, int layoutRank) {
        String hint = r.rank < 0 ? " (the pattern 'rank" + layoutRank + ":" + r.selector + "' selects only the tensors of"
                + " rank " + layoutRank + ")" : "";
        return "tensor '" + name + "' " + shape.toStringWithoutLayout() + " has rank " + shape.rank() + ", but the layout "
                + layout + " of rule '" + r.selector + "' is for rank " + layoutRank + hint;
    }

    /**
     * {@return the rank of a layout in braces: how many numbers its minor_to_major lists, or -1
     * if that part is not a plain list of numbers (the shape parser then says what is wrong)}
     */
    private static int layoutRank(String text) {
        int end = 1;
        while (end < text.length() && text.charAt(end) != ':' && text.charAt(end) != '}') {
            end++;
        }
        String m2m = text.substring(1, end).strip();
        if (m2m.isEmpty()) {
            return 0;
        }
        String[] parts = m2m.split(",", -1);
        for (String p : parts) {
            if (!p.strip().matches("[0-9]+")) {
                return -1;
            }
        }
        return parts.length;
    }

    /** {@return the regular expression of a glob} */
    static Pattern pattern(String glob) {
        Objects.requireNonNull(glob, "glob");
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < glob.length(); i++) {
            char c = glob.charAt(i);
            switch (c) {
                case '*' -> re.append(".*");
                case '?' -> re.append('.');
                default -> re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL);
    }
}
