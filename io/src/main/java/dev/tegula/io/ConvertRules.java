package dev.tegula.io;

import dev.tegula.core.ArrayShape;
import dev.tegula.core.ElementType;
import dev.tegula.core.Layout;
import dev.tegula.core.Shape;
import dev.tegula.core.ShapeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Which tensors {@link TensorFiles#convert} writes and in what shape: per-tensor rules chosen by
 * name pattern. Immutable; each method returns a new rule set with one more rule.
 *
 * <p>A pattern is a glob over the whole tensor name: {@code *} matches any run of characters
 * (dots and slashes included), {@code ?} one character, everything else itself; {@code *} alone
 * matches every tensor. For each tensor the <em>first</em> layout rule whose pattern matches gives
 * its layout, and the first matching type rule its element type. A tensor no layout rule matches
 * is written row-major ({@code {n-1,...,0}}); one no type rule matches keeps its type.
 *
 * {@snippet :
 * Layout tiled = ((ArrayShape) Shape.parse("f32[8,128]{1,0:T(8,128)}")).layout();
 * ConvertRules rules = ConvertRules.all()
 *         .layout("*.weight", tiled)         // 2-D weights tiled
 *         .floatType(ElementType.BF16);      // every floating-point tensor to bf16
 * }
 */
public final class ConvertRules {
    private record Rule(String glob, Pattern pattern, Layout layout, ElementType type, long[] dims,
                        boolean floatingOnly, String layoutText) {
        Rule(String glob, Pattern pattern, Layout layout, ElementType type, long[] dims, boolean floatingOnly) {
            this(glob, pattern, layout, type, dims, floatingOnly, null);
        }
    }

    private final List<Rule> rules;
    private final String only;

    private ConvertRules(List<Rule> rules, String only) {
        this.rules = List.copyOf(rules);
        this.only = only;
    }

    /** {@return rules that write every tensor row-major in its own type} */
    public static ConvertRules all() {
        return new ConvertRules(List.of(), null);
    }

    /** {@return these rules, writing only the tensor called {@code name}} */
    public ConvertRules only(String name) {
        return new ConvertRules(rules, Objects.requireNonNull(name, "name"));
    }

    /** {@return the one tensor selected by {@link #only}, or null when every tensor is written} */
    public String selected() {
        return only;
    }

    /**
     * {@return these rules and one more: tensors matching {@code glob} get {@code layout}}
     * A tensor of another rank than the layout's is refused when it is converted.
     */
    public ConvertRules layout(String glob, Layout layout) {
        return add(new Rule(glob, pattern(glob), Objects.requireNonNull(layout, "layout"), null, null, false));
    }

    /**
     * {@return these rules and one more: tensors matching {@code glob} get the layout written as
     * XLA text in braces, e.g. {@code "{1,0:T(8,128)(2,1)}"}} The text is parsed against each
     * matching tensor's own shape (so {@code E(n)} and tiles are checked for its type and
     * dimensions); {@code "{}"} is the layout of a scalar.
     */
    public ConvertRules layout(String glob, String layoutText) {
        Objects.requireNonNull(layoutText, "layoutText");
        return add(new Rule(glob, pattern(glob), null, null, null, false, layoutText.strip()));
    }

    /**
     * {@return these rules and one more: tensors matching {@code glob} get {@code shape}'s element
     * type and layout} Its dimensions must be the tensor's (checked when it is converted): this is
     * how the full shape text {@code tegula convert} prints is taken back.
     */
    public ConvertRules shape(String glob, ArrayShape shape) {
        Objects.requireNonNull(shape, "shape");
        Rule r = new Rule(glob, pattern(glob), shape.layout(), shape.elementType(), shape.dimensions(), false);
        return add(r);
    }

    /** {@return these rules and one more: tensors matching {@code glob} are converted to {@code type}} */
    public ConvertRules type(String glob, ElementType type) {
        return add(new Rule(glob, pattern(glob), null, Objects.requireNonNull(type, "type"), null, false));
    }

    /** {@return these rules and one more: every floating-point tensor is converted to {@code type}} */
    public ConvertRules floatType(ElementType type) {
        return add(new Rule("*", pattern("*"), null, Objects.requireNonNull(type, "type"), null, true));
    }

    private ConvertRules add(Rule r) {
        List<Rule> l = new ArrayList<>(rules);
        l.add(r);
        return new ConvertRules(l, only);
    }

    /** {@return true if the tensor called {@code name} is written} */
    public boolean selects(String name) {
        return only == null || only.equals(name);
    }

    /**
     * {@return the shape the tensor {@code name} of shape {@code source} is written in}
     *
     * @throws IllegalArgumentException naming the tensor, if a matching rule's layout does not fit
     *                                  it or a shape rule's dimensions differ from its own
     */
    public ArrayShape target(String name, ArrayShape source) {
        ElementType type = source.elementType();
        for (Rule r : rules) {
            if (r.type != null && r.pattern.matcher(name).matches()
                    && (!r.floatingOnly || source.elementType().isFloating())) {
                type = r.type;
                break;
            }
        }
        ArrayShape plain = ArrayShape.of(type, source.dimensions());
        for (Rule r : rules) {
            if (r.layoutText != null && r.pattern.matcher(name).matches()) {
                return parse(name, plain, r);
            }
            if (r.layout != null && r.pattern.matcher(name).matches()) {
                if (r.dims != null && !Arrays.equals(r.dims, source.dimensions())) {
                    throw new IllegalArgumentException("tensor '" + name + "' is " + source.toStringWithoutLayout()
                            + ": rule '" + r.glob + "' gives dimensions " + Arrays.toString(r.dims));
                }
                if (r.layout.minorToMajor().length != source.rank()) {
                    throw new IllegalArgumentException("tensor '" + name + "' " + source.toStringWithoutLayout()
                            + " has rank " + source.rank() + ": the layout " + r.layout + " of rule '" + r.glob
                            + "' is for rank " + r.layout.minorToMajor().length);
                }
                try {
                    return plain.withLayout(r.layout);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("tensor '" + name + "' " + plain.toStringWithoutLayout()
                            + ": the layout " + r.layout + " of rule '" + r.glob + "' does not fit: " + e.getMessage(), e);
                }
            }
        }
        return plain;
    }

    private static ArrayShape parse(String name, ArrayShape plain, Rule r) {
        String text = r.layoutText;
        if (plain.rank() == 0 && text.replace(" ", "").equals("{}")) {
            return plain.withLayout(Layout.rowMajor(0));
        }
        String prefix = "tensor '" + name + "' " + plain.toStringWithoutLayout() + ": the layout '" + text + "' of rule '"
                + r.glob + "' ";
        if (!text.startsWith("{")) {
            throw new IllegalArgumentException(prefix + "is not a layout in braces such as '{1,0:T(8,128)(2,1)}'");
        }
        try {
            if (Shape.parse(plain.toStringWithoutLayout() + text) instanceof ArrayShape s) {
                return s;
            }
        } catch (ShapeParseException e) {
            throw new IllegalArgumentException(prefix + "does not parse: " + e.expected() + " (at offset "
                    + Math.max(0, e.offset() - plain.toStringWithoutLayout().length()) + " of the layout)", e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + "does not fit: " + e.getMessage(), e);
        }
        throw new IllegalArgumentException(prefix + "is not an array layout");
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
