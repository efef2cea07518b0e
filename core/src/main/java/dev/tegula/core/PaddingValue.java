package dev.tegula.core;

/**
 * What the padding slots of the 2017 XLA layout ({@code padded_dimensions}) hold. The numbers are
 * those of the old {@code PaddingValue} proto enum. Tegula's text for it is the lower-case name
 * (see {@code docs/legacy-padding.md}).
 */
public enum PaddingValue {
    /** No padding value given (proto {@code INVALID_PAD}); Tegula fills such padding with zero. */
    INVALID(0),
    /** Zero of the element type. */
    ZERO(1),
    /** One of the element type. */
    ONE(2),
    /** The lowest value of the element type (negative infinity for floats that have it). */
    LOWEST(3),
    /** The highest value of the element type (positive infinity for floats that have it). */
    HIGHEST(4),
    /** Padding content is unspecified (proto {@code UNKNOWN_PAD}); Tegula fills it with zero. */
    UNKNOWN(5);

    private final int protoNumber;

    PaddingValue(int protoNumber) {
        this.protoNumber = protoNumber;
    }

    /** {@return the number of the old proto enum} */
    public int protoNumber() {
        return protoNumber;
    }

    /** {@return the text name used in Tegula's {@code PAD(...)} layout attribute, e.g. {@code "zero"}} */
    public String textName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    /** {@return the value with this text name, or null} */
    static PaddingValue fromTextName(String name) {
        for (PaddingValue v : values()) {
            if (v.textName().equals(name)) {
                return v;
            }
        }
        return null;
    }
}
